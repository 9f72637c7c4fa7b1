package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class RouterTest {
    private final Route a = ex -> {};
    private final Route b = ex -> {};
    private final Route s3 = ex -> {};
    private final Router router = new Router().add("GET", "/metrics", false, a).add("GET", "/", true, b)
            .add("PUT", "/s3/*", true, s3).add("GET", "/s3/*", true, s3);

    @Test
    void find_exactPath_andHeadFallsBackToGet() {
        assertSame(a, router.find("GET", "/metrics").entry().route());
        assertSame(a, router.find("HEAD", "/metrics").entry().route());
        assertEquals(true, router.find("GET", "/").entry().authenticated());
    }

    @Test
    void find_prefix_matchesEverythingUnderIt() {
        assertSame(s3, router.find("PUT", "/s3/bucket/key/with/slashes").entry().route());
        assertEquals(404, router.find("PUT", "/s3").status(), "the prefix /s3/* needs the slash");
    }

    @Test
    void find_unknownPathIs404_knownPathOtherMethodIs405WithTheAllowedOnes() {
        assertEquals(404, router.find("GET", "/nope").status());
        Router.Match m = router.find("DELETE", "/metrics");
        assertEquals(405, m.status());
        assertEquals(List.of("GET"), m.allowed());
        assertEquals(List.of("PUT", "GET"), router.find("POST", "/s3/x").allowed());
    }

    @Test
    void add_refusesDuplicatesAndRelativePaths() {
        assertThrows(IllegalArgumentException.class, () -> router.add("GET", "/metrics", false, a));
        assertThrows(IllegalArgumentException.class, () -> new Router().add("GET", "metrics", false, a));
    }
}
