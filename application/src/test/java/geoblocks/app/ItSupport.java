package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.BooleanSupplier;

/** Helpers the end-to-end tests against a LocalCluster share. */
final class ItSupport {
    private ItSupport() {}

    /** Polls {@code done} until it holds; fails the test after {@code seconds}. */
    static void await(int seconds, String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.currentTimeMillis() < deadline, "timed out waiting for: " + what);
            Thread.sleep(200);
        }
    }

    /** Waits until every region's node measures an RTT to every peer. */
    static void awaitAllUp(GeoClient client, int seconds) throws InterruptedException {
        await(seconds, "all peers up", () -> LocalCluster.REGIONS.stream().allMatch(r -> {
            try {
                return client.status(r).peers().stream().allMatch(p -> p.rttMs() >= 0);
            } catch (IOException e) {
                return false;
            }
        }));
    }

    /** A file of {@code size} seeded random bytes in {@code dir}. */
    static Path randomFile(Path dir, String name, int size, long seed) throws IOException {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        Path p = dir.resolve(name);
        Files.write(p, data);
        return p;
    }
}
