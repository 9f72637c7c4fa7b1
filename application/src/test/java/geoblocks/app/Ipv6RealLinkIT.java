package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * IPv6 addresses and a cluster mixing IPv4 and IPv6 nodes (issue 42), through scripts/ipv6-node-real-link.sh:
 * three nodes in network namespaces on one dual-stack bridge, a and b at ULA IPv6 addresses, c at an IPv4
 * address. A put at a is copied to b in the background over LEDBAT (path MTU 1452: the 48 bytes of IPv6 and UDP
 * headers off a 1500-byte link) and read back from b; a put at c is copied to a (an IPv4 node to an IPv6 one)
 * and one at a to c, each read back there; a's dashboard URL is printed bracketed and answers. On 61e1cc4 the
 * IPv6 pair worked, but c and a never saw each other up (each node's UDP socket, bound to one family, could not
 * send to the other: "Network is unreachable" at a, "Address family not supported by protocol" at c, 15 such
 * lines), so neither mixed copy was made, and the URL printed was http://fd31:231:0:0:0:0:0:1:47200/:
 * {@code up_v6=yes up_mixed=no v6_copy=ok v6_get=ok v6_mtu=1452 mixed_c_to_a=failed mixed_a_to_c=failed
 * url=failed unreachable_logged=15}. Needs root, ip, python3, curl and IPv6 in namespaces; skipped with the
 * reason otherwise. About 50 s.
 */
class Ipv6RealLinkIT {
    static Path script;

    @BeforeAll
    static void canRun() throws Exception {
        RealLinks.nodeJar(); // skipped without one
        script = RealLinks.script("ipv6-node-real-link.sh");
        RealLinks.assumeNamespaces("ip python3 curl");
        String ns = "gb-v6check-" + ProcessHandle.current().pid();
        String out = RealLinks.run("sh", "-c", "ip netns add " + ns + " && ip -n " + ns + " link set lo up && ip -n " + ns
                + " -6 addr add fd31:231::99/64 dev lo nodad && echo ok; ip netns del " + ns);
        assumeTrue(out.trim().endsWith("ok"), "no IPv6 in a network namespace here: " + out.trim());
    }

    @Test
    void anIpv6Pair_andAMixedCluster_putCopyAndGetThroughEachOther() throws Exception {
        Path out = Files.createTempDirectory("ipv6-node-real-link-");
        String result = RealLinks.runScript(script, Map.of("OUT", out.resolve("run").toString()), out, 120);
        assertEquals("RESULT up_v6=yes up_mixed=yes v6_copy=ok v6_get=ok v6_mtu=1452 mixed_c_to_a=ok mixed_a_to_c=ok url=ok"
                + " unreachable_logged=0", result);
    }
}
