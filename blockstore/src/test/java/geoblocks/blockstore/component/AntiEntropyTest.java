package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.AdmissionQueue;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.InFlightFiles;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBudget;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.TombstoneCollector;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.core.placement.PlacementRequest;
import geoblocks.blockstore.core.placement.PolicyCatalog;
import geoblocks.blockstore.core.read.ServiceLatency;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaBatch;
import geoblocks.blockstore.meta.MetaEngine;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.BlockStorePort.BlockStored;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.LookupManifest;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.PeerOp.SyncDigest;
import geoblocks.blockstore.wire.PeerOp.SyncLeaves;
import geoblocks.blockstore.wire.PeerOp.SyncNames;
import geoblocks.blockstore.wire.PeerOp.SyncNamesReq;
import geoblocks.net.Bytes;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

/**
 * Two nodes' anti-entropy over a loss-free network in the test: the real AntiEntropy, ReplicaServer
 * (lookups and publications), Versions and ManifestStore on each side; every message goes through
 * the file codec's size check, and what travels is counted per op.
 */
class AntiEntropyTest {
    /** The largest Kompics message on TCP (kompics-netty's frame decoder). */
    private static final int FRAME = 65_532;
    private static final long MS = 1_000_000L;

    private final ArrayDeque<Object[]> wire = new ArrayDeque<>();
    private final Map<String, Integer> messages = new TreeMap<>();
    private final Map<String, Long> entries = new TreeMap<>();
    private int largest;
    private long now = 1_000 * MS;

    /** Counts the engine's durable batches (how pulled histories are stored). */
    private static final class CountingEngine implements MetaEngine {
        final MemoryMetaEngine inner = new MemoryMetaEngine();
        int writes;

        @Override public byte[] get(byte[] key) { return inner.get(key); }
        @Override public void write(MetaBatch batch) throws IOException {
            writes++;
            inner.write(batch);
        }
        @Override public void scan(byte[] from, byte[] to, Visitor v) throws IOException { inner.scan(from, to, v); }
        @Override public Usage usage() { return inner.usage(); }
        @Override public void close() { inner.close(); }
    }

    /** One node: its store, versions, anti-entropy and replica server, and its pending requests. */
    private final class Peer implements Node {
        final String region;
        final NetAddress address;
        final CountingEngine engine = new CountingEngine();
        final ManifestStore store;
        final Versions versions;
        final Pending pending = new Pending();
        final MemoryBudget budget = new MemoryBudget(64 << 20);
        final ReplicaServer replicas = new ReplicaServer(this);
        AntiEntropy antiEntropy;
        Peer other;
        long nextReq = 1;

        Peer(String region, int port) throws IOException {
            this.region = region;
            this.address = NetAddress.of("127.0.0.1", port);
            this.store = new ManifestStore(engine);
            List<String> regions = List.of("seoul", "dublin");
            this.versions = new Versions(store, region, () -> now / MS, 1L << 40,
                    new TombstoneCollector(regions, 1L << 40, 1L << 41, 3_000), ids -> {});
        }

        void start(boolean startedEmpty) {
            antiEntropy = new AntiEntropy(this, 1_000 * MS, startedEmpty);
        }

        @Override public String region() { return region; }
        @Override public NodeSettings settings() { return NodeSettings.defaults(); }
        @Override public RttTable rtt() { throw new UnsupportedOperationException(); }
        @Override public NetAddress addressOf(String r) { return other.address; }
        @Override public List<String> lookupPeers() { return List.of(other.region); }
        @Override public List<String> peerRegions() { return List.of(other.region); }
        @Override public List<String> upPeers() { return List.of(other.region); }
        @Override public ManifestStore manifests() { return store; }
        final InFlightFiles inFlight = new InFlightFiles(600_000_000_000L);
        @Override public InFlightFiles inFlight() { return inFlight; }
        @Override public Versions versions() { return versions; }
        @Override public String ownerOf(String name) { throw new UnsupportedOperationException(); }
        @Override public String notReadyToDecideCreates() { return antiEntropy.notReadyToDecideCreates(); }
        @Override public long wallMillis() { return now / MS; }
        @Override public MemoryBudget budget() { return budget; }
        final AdmissionQueue admission = new AdmissionQueue(budget, 10_000_000_000L, 1000);
        @Override public AdmissionQueue admission() { return admission; }
        @Override public Random random() { return new Random(1); }
        @Override public long now() { return now; }
        @Override public void send(NetAddress to, FileOp op) { wire.add(new Object[] {this, other, op}); }
        private final Publications publications = new Publications(this);
        @Override public void publish(String peer, byte[] encoded, Consumer<Failure> done) {
            publications.publish(peer, encoded, done);
        }
        @Override public long expect(NetAddress peer, Pending.Waiter waiter) {
            return expect(peer, waiter, 10_000 * MS);
        }
        @Override public long expect(NetAddress peer, Pending.Waiter waiter, long timeoutNanos) {
            long req = nextReq++;
            pending.add(req, peer, waiter, timeoutNanos, now);
            return req;
        }
        @Override public void touch(long req) { pending.touch(req, now); }
        @Override public void cancel(long req) { pending.cancel(req); }
        @Override public void fail(long req, String why) { pending.fail(req, why); }
        @Override public void storeLocal(BlockId id, byte[] data, int crc, Consumer<BlockStored> done) {
            throw new UnsupportedOperationException();
        }
        @Override public void readLocal(BlockId id, Consumer<BlockRead> done) { throw new UnsupportedOperationException(); }
        @Override public void readLocal(BlockId id, Bytes.Allocator into, Consumer<BlockRead> done) {
            throw new UnsupportedOperationException();
        }
        @Override public Bytes.Allocator sendBuffers(NetAddress client) { return Bytes.Allocator.HEAP; }
        @Override public void placeOrFail(PlacementRequest request, Consumer<List<String>> placed,
                Consumer<Failure> refused) {
            throw new UnsupportedOperationException();
        }
        @Override public PolicyCatalog policies() { throw new UnsupportedOperationException(); }
        @Override public void schedule(long delayNanos, Runnable task) { throw new UnsupportedOperationException(); }
        @Override public ServiceLatency serviceLatency() { throw new UnsupportedOperationException(); }

        /** Handles one message as the file service routes it. */
        void receive(Peer from, FileOp op) {
            if (op instanceof SyncDigest d) {
                antiEntropy.onDigest(from.address, d);
            } else if (op instanceof SyncNamesReq r) {
                antiEntropy.onNamesReq(from.address, r);
            } else if (op instanceof LookupManifest l) {
                replicas.onLookup(from.address, l);
            } else if (op instanceof ManifestPart p && p.publish()) {
                replicas.onPublish(from.address, p);
            } else {
                assertTrue(pending.reply(from.address, op, now), "nobody waits for " + op);
            }
        }
    }

    private Peer[] pair(boolean seoulStartsEmpty, boolean dublinStartsEmpty) throws IOException {
        Peer seoul = new Peer("seoul", 7001);
        Peer dublin = new Peer("dublin", 7002);
        seoul.other = dublin;
        dublin.other = seoul;
        seoul.start(seoulStartsEmpty);
        dublin.start(dublinStartsEmpty);
        return new Peer[] {seoul, dublin};
    }

    /** Delivers every message until none is left; each is checked against the frame limit first. */
    private void run() {
        while (!wire.isEmpty()) {
            Object[] m = wire.poll();
            Peer from = (Peer) m[0];
            Peer to = (Peer) m[1];
            FileOp op = (FileOp) m[2];
            int size = FileCodec.INSTANCE.encodedSize(new FileMsg(new NetHeader(from.address, to.address, Transport.TCP), op));
            assertTrue(size <= FRAME, op.getClass().getSimpleName() + " of " + size + " bytes");
            largest = Math.max(largest, size);
            String type = op.getClass().getSimpleName();
            messages.merge(type, 1, Integer::sum);
            if (op instanceof SyncNames s) {
                entries.merge(type, (long) s.names().size(), Long::sum);
            } else if (op instanceof SyncLeaves s) {
                entries.merge(type, (long) s.buckets().size(), Long::sum);
            }
            to.receive(from, op);
        }
    }

    /** One exchange started by {@code p}. */
    private void exchange(Peer p) {
        messages.clear();
        entries.clear();
        p.antiEntropy.tick(now);
        run();
        now += 2_000 * MS;
    }

    private static String longName(int i) {
        String head = "bucket/" + i + "/";
        return head + "é".repeat((Manifest.MAX_NAME_BYTES - head.length()) / 2);
    }

    private static Manifest manifest(String name, long clock, String region) {
        return new Manifest(name, "f" + clock, 4, 4, "local", region, 1_700_000_000_000L + clock,
                List.of(new Manifest.BlockRef(4, 7, List.of(region)))).withVersion(new Version(clock, region));
    }

    private static void assertConverged(Peer a, Peer b) {
        assertArrayEquals(a.store.bucketDigests(), b.store.bucketDigests());
        for (int bucket = 0; bucket < ManifestStore.BUCKETS; bucket++) {
            assertArrayEquals(a.store.leafDigests(bucket), b.store.leafDigests(bucket));
        }
        assertEquals(a.store.names(), b.store.names());
    }

    /**
     * A node that lost its disk gets 3,000 names back (every third one 1,088 bytes long) from one
     * exchange: leaf digests and names come in pages below the frame limit, pulled histories are
     * stored 64 to a batch, and only then may it decide creates.
     */
    @Test
    void emptyNode_pullsEverything_inPagesBelowTheFrame_storedInBatches() throws IOException {
        Peer[] p = pair(true, false);
        Peer seoul = p[0];
        Peer dublin = p[1];
        List<ManifestHistory> all = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            all.add(ManifestHistory.of(manifest(i % 3 == 0 ? longName(i) : "obj/" + i, 1_000 + i, "dublin")));
        }
        dublin.store.mergeAll(all);
        assertNotNull(seoul.notReadyToDecideCreates());
        int writesBefore = seoul.engine.writes;

        exchange(seoul);

        assertConverged(seoul, dublin);
        assertEquals(3_000, seoul.store.size());
        assertNull(seoul.notReadyToDecideCreates(), "synced with every up peer");
        assertEquals(1, messages.get("SyncDigest"));
        assertEquals(256, entries.get("SyncLeaves"), "every bucket differs");
        assertTrue(messages.get("SyncLeaves") >= 256 * AntiEntropy.BUCKET_LEAVES_BYTES / AntiEntropy.MESSAGE_BYTES,
                messages.toString());
        assertEquals(3_000, entries.get("SyncNames"));
        assertTrue(messages.get("SyncNames") > messages.get("SyncNamesReq"), "names of a round come in several pages");
        assertEquals(3_000, messages.get("LookupManifest"));
        assertTrue(largest > 50_000, "pages are filled: largest message " + largest);
        int batches = seoul.engine.writes - writesBefore;
        assertTrue(batches <= 3_000 / AntiEntropy.MERGE_BATCH + 2 * messages.get("SyncNamesReq"),
                "pulled histories stored in " + batches + " batches");
    }

    /**
     * Among 20,000 names held alike, one name added at one node and one version added at the other
     * cost two leaves of names: the pulls, the push, and four small messages.
     */
    @Test
    void fewDifferences_amongManyNames_moveOnlyTheirLeaves() throws IOException {
        Peer[] p = pair(false, false);
        Peer seoul = p[0];
        Peer dublin = p[1];
        List<ManifestHistory> all = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            all.add(ManifestHistory.of(manifest("obj/" + i, 1_000 + i, i % 2 == 0 ? "seoul" : "dublin")));
        }
        seoul.store.mergeAll(all);
        dublin.store.mergeAll(all);
        dublin.store.save(manifest("obj/new-at-dublin", 50_000, "dublin"));
        seoul.store.save(manifest("obj/7", 50_001, "seoul"));

        exchange(seoul);

        assertConverged(seoul, dublin);
        // pulled: both names (dublin holds obj/7 differently); pushed: obj/7
        assertEquals(Map.of("LookupManifest", 2, "ManifestPart", 3, "Done", 1, "SyncDigest", 1, "SyncLeaves", 1,
                "SyncNamesReq", 1, "SyncNames", 1), messages);
        assertTrue(entries.get("SyncNames") <= 10, "names sent: " + entries.get("SyncNames"));
        assertEquals(2, seoul.store.history("obj/7").orElseThrow().versions().size());
        assertTrue(dublin.store.find("obj/new-at-dublin").isPresent() && seoul.store.find("obj/new-at-dublin").isPresent());

        exchange(dublin);
        assertEquals(Map.of("SyncDigest", 1, "SyncLeaves", 1), messages, "converged: one message each way");
        assertEquals(0, entries.get("SyncLeaves"));
    }

    /**
     * Converged nodes compare less and less often, at most 8 intervals apart; a write at a node
     * brings its interval back at once, so what it wrote reaches its peers as soon as before.
     */
    @Test
    void convergedNodes_backOff_andAWriteComparesAgainAtOnce() throws IOException {
        Peer[] p = pair(false, false);
        Peer seoul = p[0];
        long start = now;
        List<Integer> compared = new ArrayList<>();
        for (int s = 0; s <= 40; s++) {
            now = start + s * 1_000 * MS;
            if (s == 40) {
                seoul.store.save(manifest("obj/written-at-40s", 40, "seoul"));
            }
            messages.clear();
            seoul.antiEntropy.tick(now);
            run();
            if (messages.containsKey("SyncDigest")) {
                compared.add(s);
            }
        }
        assertEquals(List.of(0, 2, 6, 14, 22, 30, 38, 40), compared, "1 s, doubling up to 8 s; the write: at once");
        assertEquals(1L, p[1].store.names(), "dublin got the write");
    }
}
