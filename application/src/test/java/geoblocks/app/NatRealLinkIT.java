package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node behind NAT (issue 42), through scripts/nat-node-real-link.sh: node a sits in a namespace with a
 * private address behind a router namespace that forwards a's public address (TCP and UDP) to it and
 * masquerades what it sends; a's region entry names the public address and {@code bind = "0.0.0.0"}. Node b
 * and the client, outside, dial a's public address only. Both nodes see each other up, a put at b is read
 * back from a, a put at a (through the NAT) from b, and no node logs a dialled/claimed address mismatch. On
 * c64bb8f node a refused to start: its address is not on its host. Needs root, ip and nft (installed by
 * scripts/install-nat-tools.sh when missing); skipped with the reason otherwise.
 */
class NatRealLinkIT {
    static Path script;

    @BeforeAll
    static void canRun() throws Exception {
        RealLinks.nodeJar(); // skipped without one
        script = RealLinks.script("nat-node-real-link.sh");
        RealLinks.assumeNamespaces("ip");
        String nft = RealLinks.run(script.resolveSibling("install-nat-tools.sh").toString());
        assumeTrue(RealLinks.run("sh", "-c", "command -v nft || true").contains("nft"),
                "no nft and it could not be installed: " + nft);
    }

    @Test
    void aNodeBehindNat_joinsServesAndReplicates() throws Exception {
        Path out = Files.createTempDirectory("nat-node-real-link-");
        String result = RealLinks.runScript(script, Map.of("OUT", out.resolve("run").toString()), out, 240);
        assertEquals("RESULT up=yes put_b=ok get_a=ok put_a=ok get_b=ok mismatch_logged=0", result);
    }
}
