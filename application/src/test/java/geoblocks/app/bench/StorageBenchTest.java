package geoblocks.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class StorageBenchTest {
    @TempDir
    Path dir;

    private static StoragePlan plan(List<String> targets, List<Integer> sizes, List<Integer> streams, long bytes, int ops) {
        return new StoragePlan(targets, sizes, streams, bytes, ops, 1);
    }

    private static String refusal(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void plan_badValues_areRefusedNamingTheValue() {
        List<String> t = List.of("blockstore");
        assertTrue(refusal(() -> plan(List.of("ssd"), List.of(4096), List.of(1), 1 << 20, 1)).contains("'ssd'"));
        assertTrue(refusal(() -> plan(t, List.of(100), List.of(1), 1 << 20, 1)).contains("block size 100"));
        assertTrue(refusal(() -> plan(t, List.of(128 << 20), List.of(1), 1L << 30, 1)).contains("out of range"));
        assertTrue(refusal(() -> plan(t, List.of(4096), List.of(0), 1 << 20, 1)).contains("was 0"));
        assertTrue(refusal(() -> plan(t, List.of(4096), List.of(65), 1 << 20, 1)).contains("was 65"));
        assertTrue(refusal(() -> plan(t, List.of(1 << 20), List.of(1), 4096, 1)).contains("smaller than block size"));
        assertTrue(refusal(() -> plan(t, List.of(4096), List.of(1), 1 << 20, 0)).contains("--max-ops"));
        assertTrue(refusal(() -> plan(List.of(), List.of(4096), List.of(1), 1 << 20, 1)).contains("--targets"));
    }

    @Test
    void plan_opsAreSizeOverBlockCappedAndHeadlineIsOneMiBOneStreamBlockstore() {
        StoragePlan p = plan(List.of("raw", "blockstore"), List.of(4096, 1 << 20), List.of(4, 1), 64L << 20, 1024);
        assertEquals(1024, p.ops(4096));
        assertEquals(64, p.ops(1 << 20));
        assertEquals(1 << 20, p.headlineBlock());
        assertEquals(1, p.headlineStreams());
        assertEquals("blockstore", p.headlineTarget());
        StoragePlan q = plan(List.of("raw"), List.of(4096), List.of(4), 1 << 20, 8);
        assertEquals(4096, q.headlineBlock());
        assertEquals(4, q.headlineStreams());
        assertEquals("raw", q.headlineTarget());
    }

    @Test
    void command_badArguments_failWithAClearMessageBeforeTouchingTheDisk() throws Exception {
        for (String[] args : new String[][] {
                {"--block-sizes", "4KiB,huge"}, {"--streams", "0"}, {"--targets", "tape"}, {"--max-ops", "-1"},
                {"--size", "1KiB"}}) {
            StorageBenchCommand c = new StorageBenchCommand();
            new CommandLine(c).parseArgs(args);
            assertThrows(IllegalArgumentException.class, c::plan, String.join(" ", args));
        }
        StorageBenchCommand c = new StorageBenchCommand();
        Path file = Files.writeString(dir.resolve("a-file"), "x"); // a missing dir is created
        new CommandLine(c).parseArgs("--data", file.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::call);
        assertTrue(e.getMessage().contains("not a directory"), e.getMessage());
    }

    @Test
    void run_everyTargetSizeStreamsAndWorkload_countsItsOpsAndBytesAndCleansUp() throws Exception {
        StoragePlan p = plan(List.of("blockstore", "raw"), List.of(4096, 65536), List.of(1, 2), 65536 * 3, 3);
        List<StorageRun> seen = new ArrayList<>();
        List<StorageRun> runs = new StorageBench(dir, p).run(seen::add);
        assertEquals(2 * 2 * 2 * 4, runs.size());
        assertEquals(runs, seen);
        for (StorageRun r : runs) {
            long ops = (long) r.streams() * 3;
            assertEquals(ops, r.ops(), r.toString());
            assertEquals(ops * r.blockSize(), r.bytes(), r.toString());
            assertTrue(r.p50Ms() <= r.p99Ms() && r.p99Ms() <= r.maxMs(), r.toString());
        }
        try (Stream<Path> left = Files.walk(dir)) {
            assertEquals(0, left.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".blk")
                    || f.toString().endsWith(".dat")).count());
        }
        String json = StorageReport.json(p, dir.toString(), runs);
        for (String key : List.of("seq_write_mbps", "seq_read_mbps", "rand_write_iops", "rand_read_iops",
                "write_p99_ms", "read_p99_ms")) {
            assertTrue(json.contains("\"" + key + "\":") && !json.contains("\"" + key + "\":null"), key + " in " + json);
        }
        assertTrue(json.contains("\"headline\":{\"target\":\"blockstore\",\"block_size\":4096,\"streams\":1}"), json);
    }
}
