package geoblocks.node;

import geoblocks.blockstore.wire.FileCodec;
import geoblocks.ledbat.wire.LedbatCodec;
import geoblocks.net.ClusterVersion;
import geoblocks.network.frame.Control;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * {@code node.jar --version}: the project version and the commit the jar was built from, as the build wrote
 * them into {@code geoblocks/build.properties} (the commit is "unknown" for a build outside a git checkout).
 */
public final class BuildVersion implements CommandLine.IVersionProvider {
    private static final Properties BUILD = read();

    /** "geoblocks VERSION (commit COMMIT)". */
    public static String describe() {
        return "geoblocks " + version() + " (commit " + commit() + ")";
    }

    /** The project version the jar was built as (outside a packaged build: the version the net module was built as). */
    public static String version() {
        return BUILD.getProperty("version", ClusterVersion.BUILD_VERSION);
    }

    /** What a process names itself in its handshakes and status: "0.3.0 (commit 1a2b3c4d5e6f)", or "0.3.0". */
    public static String build() {
        return version() + (commit().equals("unknown") ? "" : " (commit " + commit() + ")");
    }

    /** The commit the jar was built from, 12 hex digits ("unknown" outside a git checkout or a packaged build). */
    public static String commit() {
        String commit = BUILD.getProperty("commit", "unknown");
        return commit.startsWith("${") ? "unknown" : commit;
    }

    /** The versions of each protocol this build speaks, for the start-up log and status: "file protocol 3-4, transport 2". */
    public static String protocols() {
        return "file protocol " + FileCodec.RANGE + ", transport "
                + Control.TRANSPORT + ", LEDBAT " + LedbatCodec.VERSION;
    }

    private static Properties read() {
        Properties p = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream("/geoblocks/build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // an unreadable resource names nothing: the fallbacks say so
        }
        return p;
    }

    @Override
    public String[] getVersion() {
        return new String[] {describe()};
    }
}
