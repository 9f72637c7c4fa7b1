package geoblocks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Region addresses in {@code geoblocks.cluster.regions}: IPv4, bracketed IPv6, mixed, and the errors that name the region. */
class ClusterConfigAddressesTest {
    private static ClusterConfig cluster(String regions) {
        return ClusterConfig.from(ConfigFactory.parseString(
                "geoblocks.cluster { emulate-wan = false, rtt-ms {}, regions = [" + regions + "] }"));
    }

    @Test
    void ipv6AndIpv4Regions_inOneCluster() {
        ClusterConfig c = cluster("{ id = a, address = \"10.231.0.1:47100\" }, { id = b, address = \"[fd31:231::2]:47100\" }");
        assertEquals(NetAddress.parse("[fd31:231::2]:47100"), c.address("b"));
        assertEquals("[fd31:231::2]:47100", c.address("b").toString());
        assertEquals("10.231.0.1:47100", c.address("a").toString());
        assertEquals(Optional.of("b"), c.regionOf(NetAddress.parse("[fd31:231:0::2]:47100")));
    }

    @Test
    void anUnbracketedIpv6Address_isRefused_namingTheRegionAndTheBracketedForm() {
        String m = assertThrows(IllegalArgumentException.class,
                () -> cluster("{ id = a, address = \"::1:47100\" }")).getMessage();
        assertTrue(m.contains("region 'a'") && m.contains("[::1]:47100"), m);
    }
}
