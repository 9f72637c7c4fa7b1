package geoblocks.app;

import geoblocks.blockstore.wire.ClientOp;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.FileBlockStorage;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.node.GeoClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code client move} against four real node processes: a file homed at seoul moves to dublin and
 * mumbai, coordinated by saopaulo (neither a holder nor a target), while another client keeps
 * reading it; the copies travel over LEDBAT, the manifest names the new homes everywhere, and
 * seoul's old copies are deleted. A move whose coordinator is killed mid-way resumes after its
 * restart and completes.
 */
@ExtendWith(QuickLaunch.class)
class MoveIT {
    private static final int BLOCK = 65536;
    @TempDir
    static Path work;
    static ItSupport.Nodes nodes;
    static LocalCluster cluster;
    static GeoClient client;

    @BeforeAll
    static void start() throws Exception {
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), false, "", 20_000, 30);
        cluster = nodes.cluster();
        client = nodes.client();
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    private static boolean holds(String region, Manifest m, int block) {
        return FileBlockStorage.inspect(cluster.dataDir(region)).contains(m.blockId(block));
    }

    @Test
    void move_rehomesTheReplicasOverLedbat_whileTheFileStaysReadable() throws Exception {
        Path in = ItSupport.randomFile(work, "moving.bin", 48 * BLOCK + 1234, 7);
        byte[] original = Files.readAllBytes(in);
        client.put("seoul", in, "move/a", "local", BLOCK, null);
        Manifest before = client.stat("seoul", "move/a");
        long seoulLedbatBefore = client.status("seoul").transfers().ledbatSent();

        AtomicBoolean moving = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        List<String> readErrors = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            int i = 0;
            while (moving.get() || i < 2) {
                Path out = work.resolve("read-" + (i++) + ".bin");
                try {
                    client.get(i % 2 == 0 ? "dublin" : "saopaulo", "move/a", out, null);
                    if (!Arrays.equals(original, Files.readAllBytes(out))) {
                        readErrors.add("read " + i + " returned other bytes");
                    }
                    reads.incrementAndGet();
                    Files.delete(out);
                } catch (IOException e) {
                    readErrors.add("read " + i + ": " + e.getMessage());
                }
            }
        });
        reader.start();
        String result = client.move("saopaulo", "move/a", List.of("dublin", "mumbai"));
        moving.set(false);
        reader.join(60_000);

        assertTrue(result.startsWith("moved 'move/a' to [dublin, mumbai]: 98 block copies over LEDBAT"), result);
        assertTrue(readErrors.isEmpty(), readErrors.toString());
        assertTrue(reads.get() >= 2, "reads during and after the move: " + reads.get());
        for (String r : List.of("seoul", "dublin", "saopaulo", "mumbai")) {
            Manifest m = client.stat(r, "move/a");
            assertEquals(before.fileId(), m.fileId(), r);
            assertEquals(before.version(), m.version(), r + ": a move keeps the version");
            assertEquals(before.locEpoch() + 1, m.locEpoch(), r + ": at the next location epoch");
            for (Manifest.BlockRef b : m.blocks()) {
                assertEquals(List.of("dublin", "mumbai"), b.replicas(), r);
            }
        }
        for (int i = 0; i < before.blocks().size(); i++) {
            assertTrue(holds("dublin", before, i) && holds("mumbai", before, i), "block " + i + " at its new homes");
        }
        ItSupport.await(20, "seoul drops its old copies", () -> {
            for (int i = 0; i < before.blocks().size(); i++) {
                if (holds("seoul", before, i)) {
                    return false;
                }
            }
            return true;
        });
        ClientOp.Transfers seoul = client.status("seoul").transfers();
        assertTrue(seoul.ledbatSent() - seoulLedbatBefore >= 2L * before.size(), "seoul pushed both copies over LEDBAT: " + seoul);
        Path after = work.resolve("after.bin");
        client.get("mumbai", "move/a", after, null);
        assertArrayEquals(original, Files.readAllBytes(after));
    }

    @Test
    void move_badRequests_areRefusedWithClearErrorsAndChangeNothing() throws Exception {
        Path in = ItSupport.randomFile(work, "stay.bin", 3 * BLOCK, 8);
        client.put("dublin", in, "move/stay", "local", BLOCK, null);
        IOException unknown = assertThrows(IOException.class, () -> client.move("dublin", "move/stay", List.of("paris")));
        assertTrue(unknown.getMessage().contains("unknown region 'paris'"), unknown.getMessage());
        IOException missing = assertThrows(IOException.class, () -> client.move("dublin", "move/none", List.of("seoul")));
        assertTrue(missing.getMessage().contains("no such file 'move/none'"), missing.getMessage());
        assertTrue(client.move("mumbai", "move/stay", List.of("dublin")).contains("already lives at [dublin]"));
        assertEquals(List.of("dublin"), client.stat("seoul", "move/stay").blocks().get(0).replicas());
    }

    @Test
    void move_rehomesTheCurrentVersion_earlierVersionsStayWhereTheyAre() throws Exception {
        Path v1File = ItSupport.randomFile(work, "v1.bin", 5 * BLOCK + 17, 21);
        Path v2File = ItSupport.randomFile(work, "v2.bin", 4 * BLOCK + 3, 22);
        client.put("dublin", v1File, "move/versioned", "local", BLOCK, null);
        Manifest v1 = client.stat("dublin", "move/versioned");
        client.put("seoul", v2File, "move/versioned", "local", BLOCK, null);
        Manifest v2 = client.stat("seoul", "move/versioned");
        assertTrue(v2.version().compareTo(v1.version()) > 0, v1.version() + " then " + v2.version());

        String result = client.move("saopaulo", "move/versioned", List.of("mumbai"));
        assertTrue(result.startsWith("moved 'move/versioned' to [mumbai]"), result);

        for (String r : List.of("seoul", "dublin", "saopaulo", "mumbai")) {
            Manifest now = client.stat(r, "move/versioned");
            assertEquals(v2.version(), now.version(), r + ": the current version moved, under its own id");
            assertEquals(v2.locEpoch() + 1, now.locEpoch(), r);
            assertEquals(List.of("mumbai"), now.blocks().get(0).replicas(), r);
            Manifest old = client.statFull(r, "move/versioned", v1.version().id()).manifest();
            assertEquals(v1, old, r + ": the earlier version is untouched");
        }
        for (int i = 0; i < v1.blocks().size(); i++) {
            assertTrue(holds("dublin", v1, i), "block " + i + " of the earlier version stays at dublin");
        }
        Path out = work.resolve("v1-after-move.bin");
        client.get("mumbai", "move/versioned", out, v1.version().id(), null);
        assertArrayEquals(Files.readAllBytes(v1File), Files.readAllBytes(out));
        Path cur = work.resolve("v2-after-move.bin");
        client.get("dublin", "move/versioned", cur, null);
        assertArrayEquals(Files.readAllBytes(v2File), Files.readAllBytes(cur));
    }

    /**
     * The coordinator of a move is killed in the middle of it and started again: the move, kept in
     * its metadata engine, resumes once its targets are up and completes (new homes named everywhere,
     * old copies deleted, the record gone). mumbai, a target, is frozen while the move starts so that
     * the move is certainly in flight when saopaulo dies; some of dublin's copies are made before (and
     * are rewritten in place, not pulled again, when the move resumes).
     */
    @Test
    void move_coordinatorKilledMidMove_resumesAfterItsRestart_andCompletes() throws Exception {
        Path in = ItSupport.randomFile(work, "restart.bin", 16 * BLOCK + 99, 31);
        byte[] original = Files.readAllBytes(in);
        client.put("seoul", in, "move/restart", "local", BLOCK, null);
        Manifest before = client.stat("seoul", "move/restart");
        cluster.pause("mumbai");
        Thread mover = new Thread(() -> {
            try {
                client.move("saopaulo", "move/restart", List.of("dublin", "mumbai"));
            } catch (IOException expected) {
                // its coordinator dies under it
            }
        });
        try {
            mover.start();
            ItSupport.await(20, "saopaulo keeps the move in its engine", () -> {
                try {
                    return client.status("saopaulo").gc().moves() == 1;
                } catch (IOException e) {
                    return false;
                }
            });
            ItSupport.await(20, "dublin has its first copy (mumbai's hang)", () -> holds("dublin", before, 0));
            cluster.kill("saopaulo");
            cluster.startNode("saopaulo");
            cluster.awaitListening("saopaulo");
        } finally {
            cluster.resume("mumbai");
        }
        mover.join(30_000);
        ItSupport.awaitAllUp(client, 30);
        ItSupport.await(90, "the resumed move completes everywhere", () -> {
            try {
                for (String r : List.of("seoul", "dublin", "saopaulo", "mumbai")) {
                    Manifest m = client.stat(r, "move/restart");
                    if (m.locEpoch() != before.locEpoch() + 1
                            || !m.blocks().stream().allMatch(b -> b.replicas().equals(List.of("dublin", "mumbai")))) {
                        return false;
                    }
                }
                return client.status("saopaulo").gc().moves() == 0;
            } catch (IOException e) {
                return false;
            }
        });
        ItSupport.await(20, "seoul drops its old copies", () -> {
            for (int i = 0; i < before.blocks().size(); i++) {
                if (holds("seoul", before, i)) {
                    return false;
                }
            }
            return true;
        });
        for (int i = 0; i < before.blocks().size(); i++) {
            assertTrue(holds("dublin", before, i) && holds("mumbai", before, i), "block " + i + " at its new homes");
        }
        Path out = work.resolve("restart-after.bin");
        client.get("mumbai", "move/restart", out, null);
        assertArrayEquals(original, Files.readAllBytes(out));
    }
}
