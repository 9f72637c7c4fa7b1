package geoblocks.blockstore.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.MoveRecord;
import geoblocks.blockstore.core.Version;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetaMoveStoreTest {
    private final MemoryMetaEngine engine = new MemoryMetaEngine();

    static MoveRecord record(String fileId, long clock) {
        Manifest m = new Manifest("f", fileId, 10, 10, "local", "seoul", clock, List.of(
                new Manifest.BlockRef(10, 1, List.of("seoul"))), new Version(clock, "seoul"), 0, false, Map.of());
        return new MoveRecord(m, List.of("dublin"), clock);
    }

    @Test
    void twoVersionsOfOneName_areKeptApart_andRemovedOneByOne() throws IOException {
        MetaMoveStore s = new MetaMoveStore(engine);
        s.save(record("v1", 1));
        s.save(record("v2", 2));
        assertEquals(List.of(record("v1", 1), record("v2", 2)), s.load().moves());
        s.remove(MetaMoveStore.key("f", "v1"));
        assertEquals(List.of(record("v2", 2)), s.load().moves());
    }

    @Test
    void aRecordOfAnEarlierBuild_keyedByNameOnly_isReadAndRekeyed() throws IOException {
        engine.write(new MetaBatch().put("mf".getBytes(StandardCharsets.UTF_8), record("v1", 1).encode()));
        MetaMoveStore s = new MetaMoveStore(engine);
        assertEquals(List.of(record("v1", 1)), s.load().moves());
        s.remove(MetaMoveStore.key("f", "v1"));
        assertEquals(List.of(), s.load().moves(), "the old key is gone with the upgrade");
    }

    @Test
    void anUnreadableRecord_isReportedByItsKey() throws IOException {
        engine.write(new MetaBatch().put(("mf\0v9").getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3}));
        MetaMoveStore.Loaded l = new MetaMoveStore(engine).load();
        assertEquals(List.of(), l.moves());
        assertEquals(List.of(MetaMoveStore.key("f", "v9")), l.unreadable());
        assertEquals("of 'f' (file v9)", MetaMoveStore.describe(l.unreadable().get(0)));
    }
}
