package geoblocks.blockstore.component;

import geoblocks.blockstore.core.AdmissionQueue;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.InFlightFiles;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.placement.PlacementRequest;
import geoblocks.blockstore.core.placement.PolicyCatalog;
import geoblocks.blockstore.core.read.ServiceLatency;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.BlockStorePort.BlockStored;
import geoblocks.blockstore.wire.Failure;
import geoblocks.net.Bytes;
import geoblocks.net.NetAddress;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * What the file service's parts (uploads, downloads, replica server) may do: send file ops, use
 * the local block store, wait for replies, and read the node's state. Implemented by
 * {@link NodeContext}; lets the parts stay plain classes. What the parts that moved to the peer service need
 * is the narrower {@link PeerNode}.
 */
interface Node extends PeerNode {
    RttTable rtt();

    NetAddress addressOf(String region);

    /** Peers to ask for a manifest: the ones that are up, or all of them while this node is new. */
    List<String> lookupPeers();

    /** Every other region of the cluster, up or not. */
    List<String> peerRegions();

    /** Every other region of the cluster that is up now, in the order of {@link #peerRegions()}. */
    List<String> upPeers();

    ManifestStore manifests();

    /** Where new versions are stamped and peers' versions merged (every change to {@link #manifests()}). */
    Versions versions();

    /** The region that decides {@code put --if-absent} for {@code name} (see core.Owners). */
    String ownerOf(String name);

    /** Null when this node may decide the creates of the names it owns, else why not (see FileService). */
    String notReadyToDecideCreates();

    /**
     * Null when this node may decide the conditional writes of {@code name} now, else why not: not
     * ready ({@link #notReadyToDecideCreates()}) or the name's owner handover is not complete
     * ({@code core.layout.OwnerHandover}).
     */
    default String notReadyToDecide(String name) {
        return notReadyToDecideCreates();
    }

    /** The version of the cluster layout this node acts on (0: its static config). */
    default long layoutVersion() {
        return 0;
    }

    /** Wall-clock milliseconds (with the configured clock offset), for version clocks and retention. */
    long wallMillis();

    /**
     * Where client work (uploads and downloads this node coordinates, background copies) reserves its
     * transfer memory, and waits for it in order when the budget is full.
     */
    AdmissionQueue admission();

    Random random();

    /**
     * Publishes an encoded manifest or history to {@code peer} for it to store (batched with other
     * publications to that peer under load, see {@link Publications}); {@code done} gets null once
     * the peer stored it, else why not (refused, unreachable, timed out).
     */
    void publish(String peer, byte[] encoded, Consumer<Failure> done);

    /**
     * Allocates a request id and waits for replies to it from {@code peer} (see {@link Pending});
     * the caller then sends its request message(s) with that id.
     */
    long expect(NetAddress peer, Pending.Waiter waiter);

    /** As {@link #expect(NetAddress, Pending.Waiter)}, with its own timeout instead of the RPC timeout. */
    long expect(NetAddress peer, Pending.Waiter waiter, long timeoutNanos);

    /** Progress on request {@code req} seen another way (LEDBAT): its deadline moves. */
    void touch(long req);

    /** Stops waiting for {@code req} without calling its waiter. */
    void cancel(long req);

    /** Fails {@code req} now: its waiter's timeout runs with {@code why}. */
    void fail(long req, String why);

    /**
     * Stores a block here; {@code done} gets the store's answer. Every block stored keeps its file in
     * flight for the block collector ({@link #inFlight}) for a grace period.
     */
    void storeLocal(BlockId id, byte[] data, int crc, Consumer<BlockStored> done);

    /** The files whose blocks are in flight here (uploads, moves, copies just stored), for the block collector. */
    InFlightFiles inFlight();

    /**
     * Reads block {@code id} into bytes from {@code into} (see {@code BlockStorage#read}): {@code done}
     * gets a {@link BlockRead} with {@code bytes}, which it then owns and releases, or with an error.
     */
    void readLocal(BlockId id, Bytes.Allocator into, Consumer<BlockRead> done);

    /** What blocks read to be sent to {@code client} are read into ({@code FileServiceInit#withSendBuffers}). */
    Bytes.Allocator sendBuffers(NetAddress client);

    /**
     * Asks the placement component where a block's copies go: {@code placed} gets the regions, or {@code refused}
     * why not, typed (INSUFFICIENT_STORAGE when room kept a region out, else UNAVAILABLE).
     */
    void placeOrFail(PlacementRequest request, Consumer<List<String>> placed,
            Consumer<Failure> refused);

    /** Names and rules of the placement policies this node knows. */
    PolicyCatalog policies();

    /** Runs {@code task} on the file service's thread about {@code delayNanos} from now (at least 1 ms). */
    void schedule(long delayNanos, Runnable task);

    /** This node's measured block-fetch latencies per replica region (load-aware ranking, hedge delays). */
    ServiceLatency serviceLatency();
}
