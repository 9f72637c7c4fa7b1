package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
    static Path jar;
    static Path script;

    @BeforeAll
    static void canRun() throws Exception {
        jar = RealLinks.nodeJar();
        script = RealLinks.script("mtu-real-link.sh");
        RealLinks.assumeNamespaces("ip python3");
    }

    @ParameterizedTest(name = "MTU {0}")
    @ValueSource(ints = {1280, 1420})
    void ackLocalPut_overAnOverlaySizedLink_copiesInTheBackgroundWithin10s(int mtu) throws Exception {
        Path out = Files.createTempDirectory("mtu-node-real-link-" + mtu + "-");
        ProcessBuilder pb = new ProcessBuilder(script.resolveSibling("mtu-node-real-link.sh").toString())
                .redirectErrorStream(true).redirectOutput(out.resolve("script.out").toFile());
        pb.environment().put("JAR", jar.toString());
        pb.environment().put("OUT", out.resolve("run").toString());   // the script empties its OUT of *.out
        pb.environment().put("MTU", Integer.toString(mtu));
        pb.environment().put("PUT_MIB", "20");
        pb.environment().put("DONE_S", "10");
        pb.environment().put("NET", "10.231." + (140 + (mtu & 0x3f)));
        Process p = pb.start();
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), "the script did not end within 240 s; see " + out);
        String log = Files.readString(out.resolve("script.out"));
        String result = log.lines().filter(l -> l.startsWith("RESULT")).findFirst().orElse("(no RESULT line)");
        assertEquals(0, p.exitValue(), result + "\n" + log);
        assertTrue(result.contains("copied=yes") && result.contains("too_long_logged=0"), result);
        assertTrue(result.contains("path_mtu=" + (mtu - 28)), "path MTU of a " + mtu + "-byte link: " + result);
    }

    @ParameterizedTest(name = "MTU {0}")
    @ValueSource(ints = {1280, 1420})
    void ledbat_overAnOverlaySizedLink_completes_andLearnsTheLinksMtu(int mtu) throws Exception {
        Path out = Files.createTempDirectory("mtu-real-link-" + mtu + "-");
        ProcessBuilder pb = new ProcessBuilder(script.toString()).redirectErrorStream(true)
                .redirectOutput(out.resolve("script.out").toFile());
        pb.environment().put("JAR", jar.toString());
        pb.environment().put("OUT", out.toString());
        pb.environment().put("MTU", Integer.toString(mtu));
        pb.environment().put("BYTES", "20MiB");
        pb.environment().put("MAX_S", "30");
        // a /24 of its own per MTU inside 10.231.128.0/17, so that two runs never share addresses
        pb.environment().put("NET", "10.231." + (130 + (mtu & 0x3f)) + "");
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the script did not end within 120 s; see " + out);
        String log = Files.readString(out.resolve("script.out"));
        String result = log.lines().filter(l -> l.startsWith("RESULT")).findFirst().orElse("(no RESULT line)");
        assertEquals(0, p.exitValue(), result + "\n" + log);
        assertTrue(result.contains("too_long_logged=0"), result);
        assertTrue(result.contains("path_mtu=" + (mtu - 28)), "path MTU of a " + mtu + "-byte link: " + result);
    }
}
