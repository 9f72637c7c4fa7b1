package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.core.placement.PolicyCatalog;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaBatch;
import geoblocks.blockstore.meta.MetaEngine;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.wire.ClientOp.Background;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import geoblocks.net.ClusterConfig;
import geoblocks.net.NetAddress;
import geoblocks.net.RttMatrix;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The snapshot's file figures come from the store's counters and creation index: the same values a
 * walk of every manifest gives (what the snapshot did before), and no walk of the names.
 */
class SnapshotsTest {
    private static final List<String> REGIONS = List.of("seoul", "dublin", "saopaulo", "mumbai");

    /** An engine that refuses any scan of the histories (a walk of the names). */
    private static final class NoWalkEngine implements MetaEngine {
        final MemoryMetaEngine inner = new MemoryMetaEngine();
        boolean watching;

        @Override public byte[] get(byte[] key) { return inner.get(key); }
        @Override public void write(MetaBatch batch) throws IOException { inner.write(batch); }
        @Override public void scan(byte[] from, byte[] to, Visitor v) throws IOException {
            assertFalse(watching && from.length > 0 && from[0] == 'h', "the snapshot walked the names");
            inner.scan(from, to, v);
        }
        @Override public Usage usage() { return inner.usage(); }
        @Override public void close() { inner.close(); }
    }

    private static NodeContext node(ManifestStore store) {
        Map<String, NetAddress> regions = new LinkedHashMap<>();
        for (int i = 0; i < REGIONS.size(); i++) {
            regions.put(REGIONS.get(i), NetAddress.of("127.0.0.1", 7000 + i));
        }
        ClusterConfig cluster = new ClusterConfig(regions, RttMatrix.specDefaults(), false);
        return new NodeContext(regions.get("seoul"), "seoul", cluster, NodeSettings.defaults(), store, 1,
                new NodeWide(1 << 20), e -> {}, e -> {}, e -> {}, new PolicyCatalog(List.of()));
    }

    private static NodeSnapshot snapshot(NodeContext node) {
        StatusReply status = new StatusReply(0, "seoul", List.of(), 0, 0, 0, 0, 0, new Transfers(0, 0, 0, 0, 0, 0),
                new Background(0, 0, List.of()));
        return Snapshots.build(node, status, new RequestStats(10), 0, null, new NodeSnapshot.Scrub(0, false, 0, -1, -1), 1);
    }

    private static Manifest file(Random r, String name, long clock) {
        List<String> all = new ArrayList<>(List.of("seoul", "dublin", "saopaulo", "mumbai", "elsewhere"));
        Collections.shuffle(all, r);
        int blocks = 1 + r.nextInt(80);
        List<Manifest.BlockRef> refs = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            refs.add(new Manifest.BlockRef(b < blocks - 1 ? 16 : 1 + r.nextInt(16), r.nextInt(),
                    all.subList(0, 1 + r.nextInt(2))));
        }
        long size = 16L * (blocks - 1) + refs.get(blocks - 1).length();
        return new Manifest(name, "f" + clock, size, 16, "local", "seoul", 1_700_000_000_000L + clock * 7, refs)
                .withVersion(new Version(clock, "seoul"));
    }

    @Test
    void build_givesWhatAWalkOfEveryManifestGives_withoutWalking() throws IOException {
        NoWalkEngine engine = new NoWalkEngine();
        ManifestStore store = new ManifestStore(engine);
        Random r = new Random(7);
        long clock = 1;
        for (int i = 0; i < 300; i++) {
            String name = "file-" + r.nextInt(200);
            if (r.nextInt(8) == 0) {
                store.save(Manifest.tombstone(name, "t", "dublin", 1_700_000_000_000L + clock * 7,
                        new Version(clock++, "dublin")));
            } else {
                store.save(file(r, name, clock++));
            }
        }
        NodeContext node = node(store);

        // what the snapshot computed before: a walk of every live head
        Map<String, long[]> placed = new TreeMap<>();
        REGIONS.forEach(region -> placed.put(region, new long[2]));
        List<Manifest> live = new ArrayList<>();
        for (Manifest m : store.list("", Integer.MAX_VALUE)) {
            live.add(m);
            for (Manifest.BlockRef b : m.blocks()) {
                for (String region : b.replicas()) {
                    long[] p = placed.computeIfAbsent(region, x -> new long[2]);
                    p[0]++;
                    p[1] += b.length();
                }
            }
        }
        live.sort(Comparator.comparingLong(Manifest::createdMillis).reversed().thenComparing(Manifest::name));
        int names = store.histories("", Integer.MAX_VALUE).size();

        engine.watching = true;
        NodeSnapshot s = snapshot(node);

        assertEquals(live.size(), s.files());
        Map<String, NodeSnapshot.Placed> expected = new TreeMap<>();
        placed.forEach((region, p) -> expected.put(region, new NodeSnapshot.Placed(p[0], p[1])));
        assertEquals(expected, new TreeMap<>(s.placed()));
        assertEquals(live.subList(0, NodeSnapshot.MAX_FILES).stream().map(Manifest::name).toList(),
                s.recentFiles().stream().map(NodeSnapshot.FileView::name).toList());
        NodeSnapshot.FileView first = s.recentFiles().get(0);
        Manifest newest = live.get(0);
        assertEquals(List.of(newest.size(), (long) newest.blockSize(), newest.createdMillis(), (long) newest.blocks().size()),
                List.of(first.size(), (long) first.blockSize(), first.createdMillis(), (long) first.blocks()));
        assertEquals(Math.min(NodeSnapshot.MAX_BLOCKS, newest.blocks().size()), first.blockReplicas().size());
        assertEquals(names - live.size(), s.tombstones().kept());
    }

    @Test
    void build_ofAnEmptyStore_hasEveryRegionAtZero() throws IOException {
        NodeSnapshot s = snapshot(node(new ManifestStore(new MemoryMetaEngine())));
        assertEquals(0, s.files());
        assertEquals(List.of(), s.recentFiles());
        assertEquals(0, s.tombstones().kept());
        Map<String, NodeSnapshot.Placed> zero = new TreeMap<>();
        REGIONS.forEach(region -> zero.put(region, new NodeSnapshot.Placed(0, 0)));
        assertEquals(zero, new TreeMap<>(s.placed()));
    }
}
