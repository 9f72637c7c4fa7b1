package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class HttpSettingsTest {
    private static Config config(String extra) {
        return ConfigFactory.parseString("""
                geoblocks.cluster.regions = [
                  { id = seoul, address = "127.0.0.1:47101", http-port = 47201 }
                  { id = dublin, address = "127.0.0.1:47102" }
                ]
                geoblocks.http { access-key = "k", secret-key = "geoblocks-local-demo-secret", probes-need-auth = false,
                  dashboard { user = admin, password = "" } }
                """ + extra).resolve();
    }

    @Test
    void of_readsTheRegionsHttpPort_boundOnTheNodesAddress() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        HttpSettings s = HttpSettings.of(config(""), "seoul", lo).orElseThrow();
        assertEquals(47201, s.bind().getPort());
        assertEquals(lo, s.bind().getAddress());
        assertEquals("k", s.accessKey());
        assertEquals(false, s.probesNeedAuth());
    }

    @Test
    void of_noHttpPort_noServer() {
        assertTrue(HttpSettings.of(config(""), "dublin", InetAddress.getLoopbackAddress()).isEmpty());
        assertTrue(HttpSettings.of(config(""), "nowhere", InetAddress.getLoopbackAddress()).isEmpty());
    }

    @Test
    void theDemoSecret_isRefusedOffLoopback() throws Exception {
        InetAddress remote = InetAddress.getByName("10.1.2.3");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HttpSettings.of(config(""), "seoul", remote));
        assertTrue(e.getMessage().contains("10.1.2.3"), e.getMessage());
        assertEquals(47201, HttpSettings.of(config("geoblocks.http.secret-key = \"a-real-secret\""), "seoul", remote)
                .orElseThrow().bind().getPort());
    }

    @Test
    void aPortOutOfRange_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> HttpSettings.of(config("""
                geoblocks.cluster.regions = [{ id = seoul, address = "127.0.0.1:1", http-port = 70000 }]
                """), "seoul", InetAddress.getLoopbackAddress()));
    }

    @Test
    void limits_readTheHeadAndBodyBounds() {
        HttpServer.Limits l = HttpSettings.limits(config("""
                geoblocks.http { head-timeout = 3 s, max-connections = 7, body-grace = 4 s, body-min-rate = 2 KiB, body-max-time = 1 h }
                """));
        assertEquals(new HttpServer.Limits(3_000, 7, new BodyDeadline(4_000, 2048, 3_600_000)), l);
    }

    @Test
    void limits_ofTheReferenceConfig_areTheDefaults() {
        assertEquals(HttpServer.Limits.DEFAULT, HttpSettings.limits(ConfigFactory.defaultReference()));
    }
}
