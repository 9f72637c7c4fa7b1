package geoblocks.blockstore.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@link MetaEngine} contract, run against both engines: order, batches, bounds, durability. */
class MetaEngineContractTest {
    @TempDir
    Path dir;

    private static final MetaSettings SMALL = new MetaSettings(1 << 20, 1 << 20, true);

    private List<MetaEngine> engines() throws IOException {
        return List.of(new MemoryMetaEngine(), RocksMetaEngine.open(dir.resolve("rocks-" + System.nanoTime()), SMALL));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> keys(MetaEngine e, byte[] from, byte[] to) throws IOException {
        List<String> out = new ArrayList<>();
        e.scan(from, to, (k, v) -> out.add(new String(k, StandardCharsets.ISO_8859_1)) || true);
        return out;
    }

    @Test
    void putGetDelete_andBatchesApplyInOrder() throws IOException {
        for (MetaEngine e : engines()) {
            try (e) {
                assertNull(e.get(b("a")));
                e.write(new MetaBatch().put(b("a"), b("1")).put(b("b"), b("2")).delete(b("b")).put(b("a"), b("3")));
                assertArrayEquals(b("3"), e.get(b("a")), e.getClass().getSimpleName());
                assertNull(e.get(b("b")));
                e.write(new MetaBatch()); // empty: nothing
                assertArrayEquals(b("3"), e.get(b("a")));
            }
        }
    }

    @Test
    void scan_isUnsignedByteOrder_boundedAndStoppable() throws IOException {
        for (MetaEngine e : engines()) {
            try (e) {
                MetaBatch batch = new MetaBatch();
                for (byte[] k : List.of(new byte[] {1}, new byte[] {1, 0}, new byte[] {(byte) 0x80}, new byte[] {(byte) 0xFF},
                        new byte[] {2, 5})) {
                    batch.put(k, new byte[] {7});
                }
                e.write(batch);
                List<String> all = keys(e, new byte[0], null);
                assertEquals(List.of("\u0001", "\u0001\u0000", "\u0002\u0005", "\u0080", "\u00ff"), all, e.getClass().getSimpleName());
                assertEquals(List.of("\u0001\u0000", "\u0002\u0005"), keys(e, new byte[] {1, 0}, new byte[] {(byte) 0x80}));
                assertEquals(List.of(), keys(e, new byte[] {9}, new byte[] {3}), "from after to: nothing");
                int[] seen = {0};
                e.scan(new byte[0], null, (k, v) -> ++seen[0] < 2);
                assertEquals(2, seen[0]);
            }
        }
    }

    @Test
    void randomOperations_matchASortedMap() throws IOException {
        for (MetaEngine e : engines()) {
            try (e) {
                Random rnd = new Random(42);
                TreeMap<String, String> model = new TreeMap<>();
                for (int round = 0; round < 200; round++) {
                    MetaBatch batch = new MetaBatch();
                    for (int i = 0; i < 5; i++) {
                        String k = "k" + rnd.nextInt(50);
                        if (rnd.nextInt(4) == 0) {
                            batch.delete(b(k));
                            model.remove(k);
                        } else {
                            String v = "v" + rnd.nextInt();
                            batch.put(b(k), b(v));
                            model.put(k, v);
                        }
                    }
                    e.write(batch);
                }
                TreeMap<String, String> seen = new TreeMap<>();
                e.scan(new byte[0], null, (k, v) -> seen.put(new String(k, StandardCharsets.UTF_8),
                        new String(v, StandardCharsets.UTF_8)) == null);
                assertEquals(model, seen);
            }
        }
    }

    @Test
    void rocks_reopened_keepsEveryAcknowledgedWrite() throws IOException {
        Path d = dir.resolve("durable");
        try (RocksMetaEngine e = RocksMetaEngine.open(d, SMALL)) {
            for (int i = 0; i < 1000; i++) {
                e.write(new MetaBatch().put(b("k" + i), b("v" + i)));
            }
            assertTrue(e.usage().memtableBytes() > 0);
        }
        try (RocksMetaEngine e = RocksMetaEngine.open(d, SMALL)) {
            for (int i = 0; i < 1000; i++) {
                assertArrayEquals(b("v" + i), e.get(b("k" + i)));
            }
        }
    }

    @Test
    void rocks_secondDirectoryOpenWhileOpen_isRefusedWithTheDirectory() throws IOException {
        Path d = dir.resolve("locked");
        try (RocksMetaEngine e = RocksMetaEngine.open(d, SMALL)) {
            IOException ex = assertThrows(IOException.class, () -> RocksMetaEngine.open(d, SMALL));
            assertTrue(ex.getMessage().contains(d.toString()), ex.getMessage());
            e.write(new MetaBatch().put(b("x"), b("y")));
            try (RocksMetaEngine follower = RocksMetaEngine.openSecondary(d, dir.resolve("follower"))) {
                assertArrayEquals(b("y"), follower.get(b("x")), "a follower reads what the node wrote");
            }
        }
    }

    @Test
    void memory_crashAfter_refusesLaterWrites() throws IOException {
        MemoryMetaEngine e = new MemoryMetaEngine();
        e.crashAfter(1);
        e.write(new MetaBatch().put(b("a"), b("1")));
        assertThrows(IOException.class, () -> e.write(new MetaBatch().put(b("b"), b("2"))));
        assertNull(e.get(b("b")));
    }
}
