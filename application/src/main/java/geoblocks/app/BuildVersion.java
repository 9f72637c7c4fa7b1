package geoblocks.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * {@code node.jar --version}: the project version and the commit the jar was built from, as the build wrote
 * them into {@code geoblocks/build.properties} (the commit is "unknown" for a build outside a git checkout).
 */
public final class BuildVersion implements CommandLine.IVersionProvider {
    /** "geoblocks VERSION (commit COMMIT)". */
    public static String describe() {
        Properties p = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream("/geoblocks/build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // an unreadable resource names nothing: the fallbacks below say so
        }
        String version = p.getProperty("version", "unknown");
        String commit = p.getProperty("commit", "unknown");
        return "geoblocks " + version + " (commit " + (commit.startsWith("${") ? "unknown" : commit) + ")";
    }

    @Override
    public String[] getVersion() {
        return new String[] {describe()};
    }
}
