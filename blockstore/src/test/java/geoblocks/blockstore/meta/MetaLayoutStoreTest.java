package geoblocks.blockstore.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutChange;
import geoblocks.blockstore.core.layout.LayoutChanges;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetaLayoutStoreTest {
    static final Map<String, String> CFG = Map.of("a", "10.0.0.1:7000", "b", "10.0.0.2:7000");

    @Test
    void firstStart_storesVersion0FromConfig() throws IOException {
        MemoryMetaEngine e = new MemoryMetaEngine();
        MetaLayoutStore s = MetaLayoutStore.open(e, CFG);
        assertEquals(Layout.fromConfig(CFG), s.current());
        assertTrue(e.get(MetaLayoutStore.KEY) != null);
    }

    @Test
    void version0_followsTheConfig_anAppliedLayoutSurvivesARestartWhateverTheConfig() throws IOException {
        MemoryMetaEngine e = new MemoryMetaEngine();
        MetaLayoutStore.open(e, CFG);
        Map<String, String> grown = Map.of("a", "10.0.0.1:7000", "b", "10.0.0.2:7000", "c", "10.0.0.3:7000");
        MetaLayoutStore s = MetaLayoutStore.open(e, grown);
        assertEquals(Layout.fromConfig(grown), s.current());
        Layout v1 = LayoutChanges.apply(s.current(), new LayoutChange.Drain("c"), Map.of("a", 0L, "b", 0L, "c", 0L),
                Set.of(), false).layout();
        assertTrue(s.adopt(v1));
        assertFalse(s.adopt(v1));
        assertFalse(s.adopt(Layout.fromConfig(CFG)));
        assertEquals(v1, MetaLayoutStore.open(e, CFG).current());
    }

    @Test
    void damagedLayout_stopsTheNodeWithAMessage() throws IOException {
        MemoryMetaEngine e = new MemoryMetaEngine();
        e.write(new MetaBatch().put(MetaLayoutStore.KEY, new byte[] {'G', 'L', 1, 0}));
        IOException x = assertThrows(IOException.class, () -> MetaLayoutStore.open(e, CFG));
        assertTrue(x.getMessage().startsWith("the cluster layout in the metadata engine is damaged"), x.getMessage());
    }
}
