package geoblocks.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A release line, {@code major.minor} (0.3 for every 0.3.x build): what a build runs as, and the
 * cluster's version, which rises only when every member runs a release that knows what the new version
 * switches on (see docs/upgrading.md). Patch releases of one line read and write the same things, so
 * they share one cluster version. Ordered by major, then minor.
 */
public record ClusterVersion(int major, int minor) implements Comparable<ClusterVersion> {
    /**
     * 0.2: the first release with version ranges, and the release of every peer whose HELLO names none (layout
     * 2, which only 0.2.x builds write). Also the cluster version of a layout that names none.
     */
    public static final ClusterVersion V0_2 = new ClusterVersion(0, 2);
    /** The project version of this build ("0.3.0-SNAPSHOT"), as Maven wrote it into {@code release.properties}. */
    public static final String BUILD_VERSION = readBuildVersion();
    /** The release line this build runs as (0.3 for every 0.3.x build). */
    public static final ClusterVersion BUILD = of(BUILD_VERSION);

    private static String readBuildVersion() {
        Properties p = new Properties();
        try (InputStream in = ClusterVersion.class.getResourceAsStream("/geoblocks/net/release.properties")) {
            if (in == null) {
                throw new IllegalStateException("geoblocks/net/release.properties is missing from the classpath");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version");
    }

    public ClusterVersion {
        if (major < 0 || major > 255 || minor < 0 || minor > 255) {
            throw new IllegalArgumentException("a cluster version is major.minor, each 0..255, was " + major + "." + minor);
        }
    }

    /**
     * The release line of project version {@code version} ("0.3.0", "0.3.0-SNAPSHOT", "1.2"); IllegalArgumentException
     * for anything that does not start with {@code major.minor}.
     */
    public static ClusterVersion of(String version) {
        Matcher m = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})(?:[.\\-+][0-9A-Za-z.\\-+]*)?").matcher(
                version == null ? "" : version.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a release version (major.minor[.patch]): '" + version + "'");
        }
        return new ClusterVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    public boolean atLeast(ClusterVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(ClusterVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
