package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * LEDBAT over GeoNetwork between two network namespaces joined by a veth pair at MTU 1280 and 1420
 * (an overlay's: WireGuard's default is 1420), through scripts/mtu-real-link.sh: 20 MiB arrive intact
 * within 30 s, no log line says "Message too long", and the path MTU LEDBAT reports is the link's
 * (MTU - 28 bytes of IPv4 and UDP headers). On c64bb8f (before the path MTU search) the transfer at 1420
 * stalled: GSO batches of 1,471-byte datagrams were refused whole. Needs root and ip (iproute2);
 * skipped with the reason otherwise.
 */
class MtuRealLinkIT {
    static Path script;

    @BeforeAll
    static void canRun() throws Exception {
        RealLinks.nodeJar(); // skipped without one
        script = RealLinks.script("mtu-real-link.sh");
        RealLinks.assumeNamespaces("ip python3");
    }

    @ParameterizedTest(name = "MTU {0}")
    @ValueSource(ints = {1280, 1420})
    void ackLocalPut_overAnOverlaySizedLink_copiesInTheBackgroundWithin10s(int mtu) throws Exception {
        Path out = Files.createTempDirectory("mtu-node-real-link-" + mtu + "-");
        String result = RealLinks.runScript(script.resolveSibling("mtu-node-real-link.sh"), Map.of(
                "OUT", out.resolve("run").toString(),   // the script empties its OUT of *.out
                "MTU", Integer.toString(mtu), "PUT_MIB", "20", "DONE_S", "10",
                "NET", "10.231." + (140 + (mtu & 0x3f))), out, 240);
        assertTrue(result.contains("copied=yes") && result.contains("too_long_logged=0"), result);
        assertTrue(result.contains("path_mtu=" + (mtu - 28)), "path MTU of a " + mtu + "-byte link: " + result);
    }

    @ParameterizedTest(name = "MTU {0}")
    @ValueSource(ints = {1280, 1420})
    void ledbat_overAnOverlaySizedLink_completes_andLearnsTheLinksMtu(int mtu) throws Exception {
        Path out = Files.createTempDirectory("mtu-real-link-" + mtu + "-");
        // a /24 of its own per MTU inside 10.231.128.0/17, so that two runs never share addresses
        String result = RealLinks.runScript(script, Map.of("OUT", out.toString(), "MTU", Integer.toString(mtu),
                "BYTES", "20MiB", "MAX_S", "30", "NET", "10.231." + (130 + (mtu & 0x3f))), out, 120);
        assertTrue(result.contains("too_long_logged=0"), result);
        assertTrue(result.contains("path_mtu=" + (mtu - 28)), "path MTU of a " + mtu + "-byte link: " + result);
    }
}
