package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.RequestIds;
import geoblocks.blockstore.core.placement.PolicyCatalog;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.port.BlockStorePort.MetaSynced;
import geoblocks.blockstore.port.BlockStorePort.SyncMeta;
import geoblocks.net.ClusterConfig;
import geoblocks.net.NetAddress;
import geoblocks.net.RttMatrix;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import se.sics.kompics.KompicsEvent;

/**
 * Two group commits over one store, as two components would have: the block store's answer to a sync reaches
 * both (Kompics delivers a port's answers to every subscriber), and each releases only on its own sync's answer.
 */
class GroupCommitTest {
    private record Out(String what) implements KompicsEvent {}

    private final List<KompicsEvent> outA = new ArrayList<>();
    private final List<KompicsEvent> outB = new ArrayList<>();
    private final List<KompicsEvent> syncsA = new ArrayList<>();
    private final List<KompicsEvent> syncsB = new ArrayList<>();

    @Test
    void anAnswerToAnotherGatesSync_releasesNothing_itsOwnReleasesWhatWaited() throws IOException {
        ManifestStore store = new ManifestStore(new MemoryMetaEngine());
        store.deferSyncs();
        NetAddress self = NetAddress.of("127.0.0.1", 7000);
        NodeContext node = new NodeContext(self, "seoul", new ClusterConfig(Map.of("seoul", self), RttMatrix.specDefaults(),
                false), NodeSettings.defaults(), store, 1, new NodeWide(1 << 20), e -> {}, e -> {}, e -> {},
                new PolicyCatalog(List.of()));
        GroupCommit a = new GroupCommit(node, store, outA::add, syncsA::add, new RequestIds(1, 2));
        GroupCommit b = new GroupCommit(node, store, outB::add, syncsB::add, new RequestIds(2, 2));
        store.save(new Manifest("n", "f1", 4, 4, "local", "seoul", 1, List.of(new Manifest.BlockRef(4, 7, List.of("seoul")))));

        a.gated(new Out("a"));
        b.gated(new Out("b"));
        assertEquals(List.of(new SyncMeta(1)), syncsA);
        assertEquals(List.of(new SyncMeta(2)), syncsB);

        MetaSynced toB = new MetaSynced(2, null);
        a.onSynced(toB);
        b.onSynced(toB);
        assertEquals(List.of(), outA, "b's sync may have started before a's write");
        assertEquals(List.of(new Out("b")), outB);

        MetaSynced toA = new MetaSynced(1, null);
        a.onSynced(toA);
        b.onSynced(toA);
        assertEquals(List.of(new Out("a")), outA);
        assertEquals(List.of(new Out("b")), outB);
        assertEquals(1, syncsA.size());
        assertEquals(1, syncsB.size());
    }
}
