package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockCodec;
import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.core.FileBlockStorage;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Owners;
import geoblocks.blockstore.wire.BenchOp.NetBenchResult;
import geoblocks.node.GeoClient;
import geoblocks.sim.harness.Content;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against four real node processes: {@code bench net} runs tcp, udp and ledbat tests between two
 * nodes (every tcp and ledbat byte arrives; udp counts what arrived), refuses a bad request with a
 * message, and prints the JSON keys; a compressed put is stored compressed on disk at every
 * replica and comes back intact at another region.
 */
@ExtendWith(QuickLaunch.class)
class BenchNetIT {
    @TempDir
    static Path work;
    static ItSupport.Nodes nodes;

    @BeforeAll
    static void start() throws Exception {
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), false, "", 30_000, 30);
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    void tcpUdpAndLedbatTests_runBetweenTwoNodes() throws Exception {
        GeoClient c = nodes.client();
        NetBenchResult tcp = c.netBench("seoul", "dublin", "tcp", 3, 10L << 20, 0, 0, 0);
        assertEquals(10L << 20, tcp.receivedBytes(), tcp.toString());
        assertEquals(tcp.sentBytes(), tcp.receivedBytes());
        assertEquals(tcp.sentPackets(), tcp.receivedPackets());
        assertTrue(tcp.nanos() > 0);
        NetBenchResult udp = c.netBench("dublin", "mumbai", "udp", 2, 0, 1_000_000, 500, 1000);
        // 2 streams x 1 Mbit/s for 0.5 s in 1000-byte datagrams: 125 sent, what arrived counted
        assertEquals(125, udp.sentPackets(), udp.toString());
        assertTrue(udp.receivedPackets() > 0 && udp.receivedPackets() <= udp.sentPackets(), udp.toString());
        assertEquals(udp.receivedPackets() * 1000, udp.receivedBytes());
        NetBenchResult ledbat = c.netBench("mumbai", "seoul", "ledbat", 2, 4L << 20, 0, 0, 0);
        assertEquals(4L << 20, ledbat.receivedBytes(), ledbat.toString());
    }

    /**
     * dublin under a UDP flood from seoul (4 streams offered 1 Gbit/s each for 2 s, more than these
     * nodes carry, so datagrams queue and are dropped; 2 s, as bench net runs it): seoul never calls dublin down, and a create
     * whose name dublin owns (dublin decides it) succeeds while the flood runs.
     */
    @Test
    void udpFlood_peerStaysUp_andACreateItOwnsSucceeds() throws Exception {
        GeoClient c = nodes.client();
        String name = null;
        for (int i = 0; name == null; i++) {
            if (Owners.ownerOf("flood-" + i, LocalCluster.REGIONS).equals("dublin")) {
                name = "flood-" + i;
            }
        }
        CompletableFuture<NetBenchResult> flood = CompletableFuture.supplyAsync(() -> {
            try {
                return c.netBench("seoul", "dublin", "udp", 4, 0, 1_000_000_000L, 2000, 1200);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Thread.sleep(700); // into the flood
        var created = c.write("seoul", null, Content.source(Content.key(23, 1), 100_000, false), name, "localclosest",
                1 << 20, "all", true, null);
        assertTrue(created.version() != null, created.toString());
        NetBenchResult r = flood.get(120, TimeUnit.SECONDS);
        assertTrue(r.sentPackets() > 0, r.toString());
        assertEquals(0.0, metric("seoul", "geoblocks_peer_down_transitions_total{peer=\"dublin\"}"),
                "seoul called dublin down during the flood");
        assertEquals(1.0, metric("seoul", "geoblocks_peer_up{peer=\"dublin\"}"));
    }

    /** One sample of a region's /metrics, by its name and labels as printed. */
    private static double metric(String region, String sample) throws Exception {
        double v = ItSupport.metric(nodes.cluster(), region, sample);
        if (Double.isNaN(v)) {
            throw new AssertionError(sample + " not in /metrics of " + region);
        }
        return v;
    }

    @Test
    void badRequests_areRefusedWithAMessage() {
        GeoClient c = nodes.client();
        IOException self = assertThrows(IOException.class, () -> c.netBench("seoul", "seoul", "tcp", 1, 1000, 0, 0, 0));
        assertTrue(self.getMessage().contains("another region"), self.getMessage());
        IOException mode = assertThrows(IOException.class, () -> c.netBench("seoul", "dublin", "sctp", 1, 1000, 0, 0, 0));
        assertTrue(mode.getMessage().contains("'sctp'"), mode.getMessage());
        IOException rate = assertThrows(IOException.class, () -> c.netBench("seoul", "dublin", "udp", 1, 0, 10, 500, 1000));
        assertTrue(rate.getMessage().contains("10 bit/s"), rate.getMessage());
    }

    @Test
    void benchNetCommand_printsTheJsonKeys() throws Exception {
        List<String> cmd = new ArrayList<>(LocalCluster.launcher(List.of()));
        cmd.addAll(List.of("bench", "net", "--config", nodes.cluster().configFile().toString(), "--from", "saopaulo",
                "--to", "seoul", "--json", "--bytes", "4MiB", "--ledbat-bytes", "1MiB", "--udp-rates", "2M",
                "--udp-duration-ms", "300", "--streams", "2"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(work.resolve("net.out").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String out = Files.readString(work.resolve("net.out"));
        assertEquals(0, p.exitValue(), out);
        for (String key : List.of("tcp_mbps", "udp_mbps", "udp_loss_pct", "udp_jitter_ms", "ledbat_mbps")) {
            assertTrue(out.contains("\"" + key + "\":") && !out.contains("\"" + key + "\":null"), key + " in " + out);
        }
    }

    @Test
    void compressedPut_isStoredCompressedAtEveryReplica_andReadBackElsewhere() throws Exception {
        GeoClient c = nodes.client();
        long key = Content.key(11, 1);
        long size = 3_500_000;
        c.write("seoul", null, Content.source(key, size, true), "text.b64", "localclosest", 1 << 20, "all", false,
                Compression.ZSTD, null);
        Manifest m = c.stat("dublin", "text.b64");
        assertEquals(size, m.size());
        assertTrue(m.storedSize() < size * 0.8, "stored " + m.storedSize());
        for (int i = 0; i < m.blocks().size(); i++) {
            Manifest.BlockRef b = m.blocks().get(i);
            assertEquals(BlockCodec.ZSTD, b.codec());
            for (String region : b.replicas()) {
                assertEquals(b.length(), FileBlockStorage.inspect(nodes.cluster().dataDir(region))
                        .get(m.blockId(i)).data().length, "block " + i + " at " + region);
            }
        }
        c.get("mumbai", "text.b64", Content.failing(key, true));
    }
}
