package geoblocks.node.cli;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.node.GeoClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Helpers shared by demo and bench: waiting for the cluster, generating files, summaries. */
public final class Cluster {
    private Cluster() {}

    /** Waits until every node sees every other node up. */
    public static void awaitAllUp(GeoClient client, List<String> regions, long timeoutMs) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        for (String r : regions) {
            while (true) {
                StatusReply s = client.status(r);
                if (s.peers().stream().allMatch(p -> p.rttMs() >= 0)) {
                    break;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("node " + r + " still sees peers down after " + timeoutMs + " ms: " + s.peers());
                }
                Thread.sleep(200);
            }
        }
    }

    public static String rtts(GeoClient client, String region) throws IOException {
        return client.status(region).peers().stream()
                .map(p -> p.region() + " " + Math.round(p.rttMs()) + " ms").collect(Collectors.joining(", "));
    }

    /** Writes {@code bytes} pseudo-random bytes (seeded), streaming. */
    public static void generate(Path file, long bytes, long seed) throws IOException {
        // SplittableRandom, 8 bytes per draw: java.util.Random.nextBytes (a CAS per 4 bytes) took a
        // fifth of the bench client's CPU (async-profiler)
        SplittableRandom rnd = new SplittableRandom(seed);
        ByteBuffer fill = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        byte[] buf = fill.array();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long left = bytes;
            while (left > 0) {
                for (int i = 0; i < buf.length; i += 8) {
                    fill.putLong(i, rnd.nextLong());
                }
                ByteBuffer b = ByteBuffer.wrap(buf, 0, (int) Math.min(buf.length, left));
                left -= b.remaining();
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
        }
    }

    /** "seoul:4 mumbai:4": how many blocks each region holds. */
    public static String replicaSummary(Manifest m) {
        Map<String, Integer> count = new TreeMap<>();
        m.blocks().forEach(b -> b.replicas().forEach(r -> count.merge(r, 1, Integer::sum)));
        return count.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(" "));
    }

    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + root + ": " + e.getMessage());
        }
    }
}
