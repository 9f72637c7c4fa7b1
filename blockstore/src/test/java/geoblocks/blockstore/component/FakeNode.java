package geoblocks.blockstore.component;

import geoblocks.blockstore.core.AdmissionQueue;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.InFlightFiles;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.MemoryBudget;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.Owners;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.TombstoneCollector;
import geoblocks.blockstore.core.placement.PlacementRequest;
import geoblocks.blockstore.core.placement.PolicyCatalog;
import geoblocks.blockstore.core.placement.PolicyDescription;
import geoblocks.blockstore.core.read.ServiceLatency;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.BlockStorePort.BlockStored;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.FetchBlock;
import geoblocks.blockstore.wire.PeerOp.FetchPaced;
import geoblocks.net.Bytes;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A node at saopaulo with peers dublin (RTT 100 ms), mumbai (300 ms) and seoul (400 ms), for tests of
 * the file service's parts: nothing happens by itself; the test sets the clock, runs the wake-ups
 * and answers the requests it finds in {@link #sent} through {@link #waiting}.
 */
final class FakeNode implements Node {
    static final long MS = 1_000_000L;
    static final List<String> PEERS = List.of("dublin", "mumbai", "seoul");
    long now = 1_000 * MS;
    final List<long[]> wakeupsAt = new ArrayList<>();
    final List<Runnable> wakeups = new ArrayList<>();
    final List<Object[]> sent = new ArrayList<>();
    final Map<Long, Pending.Waiter> waiting = new HashMap<>();
    long nextReq = 1;
    RttTable rtt = new RttTable("saopaulo", Map.of("dublin", 100.0, "mumbai", 300.0, "seoul", 400.0), Set.of());
    final ServiceLatency latency = ServiceLatency.defaults();
    final MemoryBudget budget = new MemoryBudget(64 << 20);

    @Override public String region() { return "saopaulo"; }
    NodeSettings settings = NodeSettings.defaults();
    private ManifestStore manifests;

    @Override public NodeSettings settings() { return settings; }
    @Override public RttTable rtt() { return rtt; }
    @Override public NetAddress addressOf(String region) {
        return NetAddress.of("127.0.0.1", 7000 + PEERS.indexOf(region));
    }
    @Override public List<String> lookupPeers() { return PEERS; }
    @Override public List<String> peerRegions() { return PEERS; }
    /** Peers up now (all of them unless a test takes some down). */
    final List<String> up = new ArrayList<>(PEERS);
    @Override public List<String> upPeers() { return List.copyOf(up); }
    @Override public ManifestStore manifests() {
        if (manifests == null) {
            try {
                manifests = new ManifestStore(new MemoryMetaEngine());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return manifests;
    }
    private Versions versions;
    @Override public Versions versions() {
        if (versions == null) {
            List<String> regions = new ArrayList<>(PEERS);
            regions.add(region());
            versions = new Versions(manifests(), region(), this::wallMillis, settings.versionRetentionMs(),
                    TombstoneCollector.of(regions, settings), ids -> {});
        }
        return versions;
    }
    @Override public String ownerOf(String name) {
        return Owners.ownerOf(name, List.of("dublin", "mumbai", "saopaulo", "seoul"));
    }

    /** This node over {@code store} (a restarted node reading what an earlier one kept). */
    FakeNode withManifests(ManifestStore store) {
        this.manifests = store;
        return this;
    }
    /** What {@link #notReadyToDecideCreates} answers: null (ready) unless a test sets it. */
    String notReady;
    @Override public String notReadyToDecideCreates() { return notReady; }
    @Override public long wallMillis() { return now / MS; }
    @Override public MemoryBudget budget() { return budget; }
    final AdmissionQueue admission = new AdmissionQueue(budget, 10_000_000_000L, 1000);
    @Override public AdmissionQueue admission() { return admission; }
    @Override public Random random() { return new Random(1); }
    @Override public long now() { return now; }
    @Override public void send(NetAddress to, FileOp op) { sent.add(new Object[] {to, op}); }
    private final Publications publications = new Publications(this);
    @Override public void publish(String peer, byte[] encoded, Consumer<Failure> done) {
        publications.publish(peer, encoded, done);
    }
    @Override public long expect(NetAddress peer, Pending.Waiter waiter) {
        long req = nextReq++;
        waiting.put(req, waiter);
        return req;
    }
    @Override public long expect(NetAddress peer, Pending.Waiter waiter, long timeoutNanos) {
        return expect(peer, waiter);
    }
    @Override public void touch(long req) {}
    @Override public void cancel(long req) { waiting.remove(req); }
    @Override public void fail(long req, String why) { waiting.remove(req).onTimeout(why); }
    /** When set, the node's block store: reads and writes complete at once. */
    BlockStorage disk;
    @Override public void storeLocal(BlockId id, byte[] data, int crc, Consumer<BlockStored> done) {
        if (disk == null) {
            throw new UnsupportedOperationException();
        }
        Failure failure = null;
        try {
            disk.put(id, data, crc);
        } catch (IOException e) {
            failure = Failure.ofStorage(e);
        }
        done.accept(new BlockStored(nextReq++, id, failure));
    }
    @Override public void readLocal(BlockId id, Consumer<BlockRead> done) {
        if (disk == null) {
            throw new UnsupportedOperationException();
        }
        try {
            done.accept(new BlockRead(nextReq++, id, disk.get(id), null));
        } catch (IOException e) {
            done.accept(new BlockRead(nextReq++, id, null, Failure.ofStorage(e)));
        }
    }
    @Override public void readLocal(BlockId id, Bytes.Allocator into, Consumer<BlockRead> done) {
        if (disk == null) {
            throw new UnsupportedOperationException();
        }
        try {
            done.accept(new BlockRead(nextReq++, id, null, null, disk.read(id, into)));
        } catch (IOException e) {
            done.accept(new BlockRead(nextReq++, id, null, Failure.ofStorage(e)));
        }
    }
    /** What blocks for clients are read into (heap unless a test counts releases). */
    Bytes.Allocator sendBuffers = Bytes.Allocator.HEAP;
    @Override public Bytes.Allocator sendBuffers(NetAddress client) {
        return sendBuffers;
    }
    /** Where {@link #place} puts every request (null: placing is not expected), and the requests it got. */
    List<String> placeAt;
    final List<PlacementRequest> placed = new ArrayList<>();
    @Override public void placeOrFail(PlacementRequest request, Consumer<List<String>> placed,
            Consumer<Failure> refused) {
        if (placeAt == null) {
            throw new UnsupportedOperationException();
        }
        this.placed.add(request);
        placed.accept(placeAt);
    }
    @Override public PolicyCatalog policies() {
        return new PolicyCatalog(List.of(new PolicyDescription("local", "seed", 1, ""),
                new PolicyDescription("tworandom", "seed", 2, "")));
    }
    @Override public void schedule(long delayNanos, Runnable task) {
        wakeupsAt.add(new long[] {now + delayNanos});
        wakeups.add(task);
    }
    @Override public ServiceLatency serviceLatency() { return latency; }
    final InFlightFiles inFlight = new InFlightFiles(600_000 * MS);
    @Override public InFlightFiles inFlight() { return inFlight; }

    /** The fetch requests sent so far, by region. */
    List<String> fetchedFrom() {
        List<String> out = new ArrayList<>();
        for (Object[] s : sent) {
            if (s[1] instanceof FetchPaced || s[1] instanceof FetchBlock) {
                out.add(PEERS.get(((NetAddress) s[0]).getPort() - 7000));
            }
        }
        return out;
    }
}
