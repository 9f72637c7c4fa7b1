package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.net.RttMatrix;
import geoblocks.node.s3.migration.ClientNetworks;
import geoblocks.node.s3.migration.Migration;
import java.net.InetAddress;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DataBridge's decisions: the client's region (header, then client networks) and where a moved object goes. */
class DataBridgeTest {
    static final List<String> REGIONS = List.of("seoul", "dublin", "saopaulo", "mumbai");

    @Test
    void clientRegion_headerFirst_thenFirstMatchingNetwork_elseNone() throws Exception {
        ClientNetworks n = new ClientNetworks().add("10.1.0.0/16", "seoul").add("10.0.0.0/8", "dublin")
                .add("2001:db8::/32", "mumbai");
        assertEquals("saopaulo", n.regionOf("saopaulo", InetAddress.getByName("10.1.2.3"), REGIONS));
        assertEquals("seoul", n.regionOf(null, InetAddress.getByName("10.1.2.3"), REGIONS));
        assertEquals("dublin", n.regionOf(null, InetAddress.getByName("10.2.0.1"), REGIONS));
        assertEquals("dublin", n.regionOf("atlantis", InetAddress.getByName("10.2.0.1"), REGIONS));
        assertEquals("mumbai", n.regionOf(null, InetAddress.getByName("2001:db8::7"), REGIONS));
        assertNull(n.regionOf(null, InetAddress.getByName("192.168.1.1"), REGIONS));
        assertNull(n.regionOf(null, null, REGIONS));
    }

    @Test
    void clientNetworks_refuseMalformedBlocks() {
        assertThrows(IllegalArgumentException.class, () -> new ClientNetworks().add("10.0.0.0", "seoul"));
        assertThrows(IllegalArgumentException.class, () -> new ClientNetworks().add("10.0.0.0/33", "seoul"));
        assertThrows(IllegalArgumentException.class, () -> new ClientNetworks().add("10.0.0.0/x", "seoul"));
    }

    @Test
    void migrationTargets_areHomeThenItsNearestRegions() {
        RttMatrix rtt = RttMatrix.specDefaults();
        Migration two = new Migration(null, rtt, REGIONS, 2, null);
        List<String> t = two.targets("dublin");
        assertEquals("dublin", t.get(0));
        assertEquals(2, t.size());
        String nearest = REGIONS.stream().filter(r -> !r.equals("dublin"))
                .min(Comparator.comparingDouble(r -> rtt.rttMs("dublin", r))).orElseThrow();
        assertEquals(nearest, t.get(1));
        assertEquals(List.of("seoul"), new Migration(null, rtt, REGIONS, 1, null).targets("seoul"));
        assertEquals(4, new Migration(null, rtt, REGIONS, 4, null).targets("mumbai").size());
        assertThrows(IllegalArgumentException.class, () -> new Migration(null, rtt, REGIONS, 5, null));
    }
}
