package geoblocks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClusterVersionTest {
    @Test
    void of_takesTheReleaseLineOfAProjectVersion() {
        assertEquals(new ClusterVersion(0, 3), ClusterVersion.of("0.3.0-SNAPSHOT"));
        assertEquals(new ClusterVersion(0, 3), ClusterVersion.of("0.3.12"));
        assertEquals(new ClusterVersion(1, 10), ClusterVersion.of("1.10"));
        assertEquals(new ClusterVersion(2, 0), ClusterVersion.of("2.0.0+build.7"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "unknown", "3", "0.x", "${project.version}", "0.3.0 extra"})
    void of_refusesWhatIsNoRelease_namingIt(String v) {
        String m = assertThrows(IllegalArgumentException.class, () -> ClusterVersion.of(v)).getMessage();
        assertTrue(m.contains("'" + v + "'"), m);
    }

    @Test
    void order_isByMajorThenMinor() {
        assertTrue(new ClusterVersion(0, 10).compareTo(new ClusterVersion(0, 9)) > 0);
        assertTrue(new ClusterVersion(1, 0).compareTo(new ClusterVersion(0, 99)) > 0);
        assertTrue(new ClusterVersion(0, 3).atLeast(ClusterVersion.V0_2));
        assertEquals("0.10", new ClusterVersion(0, 10).toString());
    }

    /** The build's own line comes from the version Maven built it as, filtered into release.properties. */
    @Test
    void build_isTheProjectVersionsLine() {
        assertEquals(ClusterVersion.of(ClusterVersion.BUILD_VERSION), ClusterVersion.BUILD);
        assertTrue(ClusterVersion.BUILD.compareTo(ClusterVersion.V0_2) > 0, "this build is past 0.2: " + ClusterVersion.BUILD);
    }
}
