package geoblocks.blockstore.component;

import geoblocks.blockstore.core.AntiEntropyPlan;
import geoblocks.blockstore.core.IdleBackoff;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.PeerOp.BucketLeaves;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.PeerOp.NameDigest;
import geoblocks.blockstore.wire.PeerOp.SyncDigest;
import geoblocks.blockstore.wire.PeerOp.SyncLeaves;
import geoblocks.blockstore.wire.PeerOp.SyncNames;
import geoblocks.blockstore.wire.PeerOp.SyncNamesReq;
import geoblocks.net.NetAddress;
import geoblocks.net.Wire;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Anti-entropy (repair in the background, as in Dynamo and Cassandra): every
 * {@code anti-entropy-interval} this node starts one exchange with the next peer that is up, in
 * turn, down the two-level digest tree its {@link ManifestStore} keeps:
 * <ol>
 * <li>it sends the digest of every bucket ({@link SyncDigest}); the peer answers with the leaf
 *     digests of the buckets that differ ({@link SyncLeaves}; none: converged, done);</li>
 * <li>for the leaves that differ, {@value #LEAVES_PER_ROUND} at a time, it asks for the peer's name
 *     digests ({@link SyncNamesReq}, answered by {@link SyncNames}) and compares them with its own
 *     ({@link AntiEntropyPlan});</li>
 * <li>it pulls the history of every name the peer has differently (a lookup; merged
 *     {@value #MERGE_BATCH} at a time in one durable batch, {@link Versions#mergeAll}) and pushes
 *     its own (a publication), {@value #IN_FLIGHT} at a time; both sides merge, so after the
 *     round they hold the same versions of those names.</li>
 * </ol>
 * What travels grows with the differences, not with the names: converged nodes exchange one 2 KB
 * message and a short answer; one differing name adds one bucket's leaf digests (2 KB) and the
 * names of one leaf. Every message is paged by bytes below {@value #MESSAGE_BYTES} bytes of
 * entries. A node that lost its disk gets every manifest back this way (its scrubber then restores
 * its replicas); after a partition heals, both sides get what the other side wrote. Manifests
 * travel over TCP.
 */
final class AntiEntropy {
    /**
     * Bytes of entries (leaf digests, or names and digests) per message: with the header and fixed
     * fields a message stays below the 65,532-byte TCP frame of Kompics' Netty network.
     */
    static final int MESSAGE_BYTES = 60_000;
    /** Differing leaves asked for per round (a round's names are held in memory while it runs). */
    static final int LEAVES_PER_ROUND = 256;
    /** Pulls and pushes of one round in flight at once. */
    static final int IN_FLIGHT = 8;
    /** Pulled histories stored per durable batch. */
    static final int MERGE_BATCH = 64;
    /** Bytes of one bucket's leaf digests in {@link SyncLeaves}: bucket i32, count u16, LEAVES x i64. */
    static final int BUCKET_LEAVES_BYTES = 4 + 2 + 8 * ManifestStore.LEAVES;

    private final Node node;
    /** An idle cluster's exchanges are at most this many times anti-entropy-interval apart. */
    static final int MAX_IDLE_FACTOR = 8;

    private final IdleBackoff backoff;
    private int turn;
    private boolean running;
    /** When the last exchange ended (or a tick found no peer up); MIN_VALUE: never. */
    private long lastEnd = Long.MIN_VALUE;
    /** The metadata store's write count and the up peers when the last exchange started. */
    private long writesAtStart = -1;
    private List<String> upAtStart = List.of();
    /** Peers the exchanges since the last change found converged with this node. */
    private final Set<String> quietPeers = new TreeSet<>();
    /** Peers an exchange this node started has completed with, every name in it transferred. */
    private final Set<String> synced = new TreeSet<>();
    /** When (node.now()) the last exchange this node started with each peer completed, every name transferred. */
    private final Map<String, Long> syncedAt = new HashMap<>();

    /** When (node.now()) the last completed exchange this node started with each peer had started. */
    private final Map<String, Long> syncStartedAt = new HashMap<>();
    /** When the running (or last) exchange started. */
    private long exchangeStart;
    /** Told the peer of every exchange as it starts (the cluster layout's announcement). */
    private Consumer<String> onExchange = p -> { };

    /** Whether this node may decide creates yet (see {@link #notReadyToDecideCreates}). */
    private boolean decidesCreates;

    AntiEntropy(Node node, long intervalNanos, boolean startedEmpty) {
        this.node = node;
        this.backoff = new IdleBackoff(intervalNanos, MAX_IDLE_FACTOR * intervalNanos);
        this.decidesCreates = !startedEmpty || node.peerRegions().isEmpty();
    }

    /**
     * Starts the next exchange when the interval has passed and none is running. Once exchanges
     * since the last change found this node converged with every up peer, the interval doubles
     * after each further converged exchange, up to {@value #MAX_IDLE_FACTOR} times
     * {@code anti-entropy-interval} ({@link IdleBackoff}); it is back to the configured one as soon
     * as this node's metadata changes (a write, a merge, a received publication), an exchange finds
     * a difference or fails, or a peer comes up or goes down. A node that wrote something compares
     * with every peer within one interval each, as before, so its peers get what its publications
     * missed; an idle cluster compares rarely.
     */
    void tick(long now) {
        if (running) {
            return;
        }
        List<String> up = node.upPeers();
        if (node.manifests().writes() != writesAtStart || !up.equals(upAtStart)) {
            backoff.reset();
            quietPeers.clear();
        }
        if (lastEnd != Long.MIN_VALUE && now - lastEnd < backoff.interval()) {
            return;
        }
        writesAtStart = node.manifests().writes();
        upAtStart = up;
        if (up.isEmpty()) {
            lastEnd = now;
            return;
        }
        start(up.get(Math.floorMod(turn++, up.size())));
    }

    private void start(String peer) {
        running = true;
        exchangeStart = node.now();
        onExchange.accept(peer);
        NetAddress addr = node.addressOf(peer);
        List<Long> digests = new ArrayList<>();
        for (long d : node.manifests().bucketDigests()) {
            digests.add(d);
        }
        Set<Integer> leaves = new TreeSet<>();
        long req = node.expect(addr, Pending.Waiter.of(op -> {
            if (op instanceof SyncLeaves s) {
                for (BucketLeaves b : s.buckets()) {
                    if (b.bucket() < 0 || b.bucket() >= ManifestStore.BUCKETS || b.leaves().size() != ManifestStore.LEAVES) {
                        end(peer + " sent " + b.leaves().size() + " leaf digests for bucket " + b.bucket());
                        return true;
                    }
                    long[] theirs = b.leaves().stream().mapToLong(Long::longValue).toArray();
                    leaves.addAll(AntiEntropyPlan.differingLeaves(b.bucket(),
                            node.manifests().leafDigests(b.bucket()), theirs));
                }
                if (s.more()) {
                    return false;
                }
                new Exchange(peer, addr, AntiEntropyPlan.rounds(leaves, LEAVES_PER_ROUND)).next();
                return true;
            }
            if (op instanceof Failed f) {
                end(peer + ": " + f.error());
                return true;
            }
            return false;
        }, why -> end(peer + ": " + why.text())));
        node.send(addr, new SyncDigest(req, digests));
    }

    /** A peer's bucket digests: answers with this node's leaf digests of every bucket that differs. */
    void onDigest(NetAddress peer, SyncDigest d) {
        if (d.buckets().size() != ManifestStore.BUCKETS) {
            node.send(peer, new Failed(d.req(), FailureCode.INVALID, "anti-entropy digests must cover " + ManifestStore.BUCKETS
                    + " buckets, got " + d.buckets().size()));
            return;
        }
        long[] theirs = d.buckets().stream().mapToLong(Long::longValue).toArray();
        List<BucketLeaves> buckets = new ArrayList<>();
        for (int b : AntiEntropyPlan.differing(node.manifests().bucketDigests(), theirs)) {
            List<Long> leaves = new ArrayList<>(ManifestStore.LEAVES);
            for (long leaf : node.manifests().leafDigests(b)) {
                leaves.add(leaf);
            }
            buckets.add(new BucketLeaves(b, leaves));
        }
        List<Integer> sizes = buckets.stream().map(b -> BUCKET_LEAVES_BYTES).toList();
        int from = 0;
        List<Integer> ends = AntiEntropyPlan.pageEnds(sizes, MESSAGE_BYTES, FileCodec.MAX_LIST);
        for (int i = 0; i < ends.size(); i++) {
            int to = ends.get(i);
            node.send(peer, new SyncLeaves(d.req(), List.copyOf(buckets.subList(from, to)), i < ends.size() - 1));
            from = to;
        }
    }

    /** A peer asks for this node's name digests in some leaves: answers with them, paged by bytes. */
    void onNamesReq(NetAddress peer, SyncNamesReq r) {
        Set<Integer> leaves = new TreeSet<>();
        for (int leaf : r.leaves()) {
            if (leaf < 0 || leaf >= ManifestStore.BUCKETS * ManifestStore.LEAVES) {
                node.send(peer, new Failed(r.req(), FailureCode.INVALID, "anti-entropy leaf must be in 0.."
                        + (ManifestStore.BUCKETS * ManifestStore.LEAVES - 1) + ", was " + leaf));
                return;
            }
            leaves.add(leaf);
        }
        List<NameDigest> names = new ArrayList<>();
        node.manifests().leafNameDigests(leaves).forEach((n, digest) -> names.add(new NameDigest(n, digest)));
        List<Integer> sizes = names.stream().map(n -> Wire.stringSize(n.name()) + 8).toList();
        int from = 0;
        List<Integer> ends = AntiEntropyPlan.pageEnds(sizes, MESSAGE_BYTES, FileCodec.MAX_LIST);
        for (int i = 0; i < ends.size(); i++) {
            int to = ends.get(i);
            node.send(peer, new SyncNames(r.req(), List.copyOf(names.subList(from, to)), i < ends.size() - 1));
            from = to;
        }
    }

    /**
     * Null when this node may decide the creates of the names it owns, else why not. A node that
     * started with no manifests (new, or its disk was lost) may not know that a name it owns
     * exists, so it decides only once an exchange with every peer that is up has completed; from
     * then on (and always, for a node that started with manifests) it decides from its own store.
     */
    String notReadyToDecideCreates() {
        if (!decidesCreates && syncedWithEveryUpPeer()) {
            decidesCreates = true;
        }
        return decidesCreates ? null : node.region() + " started with no manifests and has not yet compared them with"
                + " every region that is up, so it cannot decide creates yet; retry in a few seconds";
    }

    /**
     * True when an exchange with every peer (up or not) has completed since {@code sinceNanos}: this
     * node then holds every version its peers held when the exchanges began (the block collector
     * waits for it after a start or a reconnection, so it never judges blocks on missing manifests).
     */
    boolean syncedWithEveryPeerSince(long sinceNanos) {
        for (String peer : node.peerRegions()) {
            Long at = syncedAt.get(peer);
            if (at == null || at - sinceNanos < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * True when an exchange with every peer (up or not), started at or after {@code sinceNanos}, has
     * completed: this node then holds every version its peers held at {@code sinceNanos}.
     */
    boolean syncedWithEveryPeerStartedSince(long sinceNanos) {
        for (String peer : node.peerRegions()) {
            Long at = syncStartedAt.get(peer);
            if (at == null || at - sinceNanos < 0) {
                return false;
            }
        }
        return true;
    }

    /** Calls {@code c} with the peer of every exchange as it starts. */
    void onExchange(Consumer<String> c) {
        this.onExchange = c;
    }

    /** Something changed that peers must hear of soon (a new cluster layout): compare at the configured interval again. */
    void wake() {
        writesAtStart = -1;
    }

    /** True once an exchange with every peer that is up has completed (and at least one is up). */
    private boolean syncedWithEveryUpPeer() {
        List<String> up = node.upPeers();
        return !up.isEmpty() && synced.containsAll(up);
    }

    /**
     * The part of one exchange after the leaf digests: the differing leaves in rounds, each asked
     * for, planned and settled (pulls and pushes done) before the next.
     */
    private final class Exchange {
        private final String peer;
        private final NetAddress addr;
        private final List<List<Integer>> rounds;
        private int round;
        private final List<String> problems = new ArrayList<>();
        private int pulled;
        private int pushed;
        /** The running round's pulls and pushes not started yet, how many have not finished, pulls not stored yet. */
        private ArrayDeque<Runnable> work = new ArrayDeque<>();
        private int left;
        private List<ManifestHistory> fetched = new ArrayList<>();

        Exchange(String peer, NetAddress addr, List<List<Integer>> rounds) {
            this.peer = peer;
            this.addr = addr;
            this.rounds = rounds;
        }

        /** Asks for the peer's names in the next round's leaves, or ends the exchange after the last. */
        void next() {
            if (round == rounds.size()) {
                finish();
                return;
            }
            List<Integer> leaves = rounds.get(round++);
            Set<Integer> asked = new TreeSet<>(leaves);
            Map<String, Long> theirs = new TreeMap<>();
            long req = node.expect(addr, Pending.Waiter.of(op -> {
                if (op instanceof SyncNames s) {
                    List<String> names = new ArrayList<>(s.names().size());
                    try {
                        for (NameDigest n : s.names()) {
                            names.add(Manifest.validateName(n.name()));
                            theirs.put(n.name(), n.digest());
                        }
                    } catch (IllegalArgumentException e) {
                        end(peer + " sent a bad name: " + e.getMessage());
                        return true;
                    }
                    String stray = AntiEntropyPlan.outside(asked, names);
                    if (stray != null) {
                        end(peer + " sent name '" + stray + "' of a leaf not asked for");
                        return true;
                    }
                    if (s.more()) {
                        return false;
                    }
                    settle(AntiEntropyPlan.plan(node.manifests().leafNameDigests(asked), theirs));
                    return true;
                }
                if (op instanceof Failed f) {
                    end(peer + ": " + f.error());
                    return true;
                }
                return false;
            }, why -> end(peer + ": " + why.text())));
            node.send(addr, new SyncNamesReq(req, leaves));
        }

        private void settle(AntiEntropyPlan.Plan plan) {
            if (plan.isEmpty()) {
                next();
                return;
            }
            ArrayDeque<Runnable> w = new ArrayDeque<>();
            for (String name : plan.pull()) {
                w.add(() -> ManifestLookup.fetch(node, addr, name, h -> {
                    fetched.add(h);
                    if (fetched.size() >= MERGE_BATCH) {
                        store();
                    }
                    finished(null);
                }, why -> finished("pulling '" + name + "': " + why.text())));
            }
            for (String name : plan.push()) {
                w.add(() -> push(name));
            }
            work = w;
            left = w.size();
            for (int i = 0; i < IN_FLIGHT && !w.isEmpty(); i++) {
                w.poll().run();
            }
        }

        /** One pull or push of the round finished ({@code problem} null: it succeeded). */
        private void finished(String problem) {
            if (problem != null) {
                problems.add(problem);
            }
            left--;
            Runnable r = work.poll();
            if (r != null) {
                r.run();
            } else if (left == 0) {
                store();
                next();
            }
        }

        /** Stores the pulled histories not stored yet, in one durable batch. */
        private void store() {
            if (fetched.isEmpty()) {
                return;
            }
            List<ManifestHistory> batch = fetched;
            fetched = new ArrayList<>();
            try {
                node.versions().mergeAll(batch);
                pulled += batch.size();
            } catch (IOException | RuntimeException e) {
                problems.add("storing " + batch.size() + " pulled histories: " + e.getMessage());
            }
        }

        private void push(String name) {
            Optional<ManifestHistory> h = node.manifests().history(name);
            if (h.isEmpty()) {
                finished(null); // dropped by the retention meanwhile: nothing to push
                return;
            }
            byte[] bytes = ManifestCodec.encodeHistory(h.get());
            long req = node.expect(addr, Pending.Waiter.until(Done.class, why -> {
                if (why == null) {
                    pushed++;
                }
                finished(why == null ? null : "pushing '" + name + "': " + why.text());
            }));
            Assembly.split(bytes, node.settings().chunkBytes(), (off, part) ->
                    node.send(addr, new ManifestPart(req, true, off, bytes.length, part)));
        }

        private void finish() {
            if (problems.isEmpty()) {
                synced.add(peer);
                syncedAt.put(peer, node.now());
                syncStartedAt.put(peer, exchangeStart);
            }
            if (pulled + pushed > 0 || !problems.isEmpty()) {
                Logs.info(node.region() + ": anti-entropy with " + peer + ": pulled " + pulled + ", pushed " + pushed
                        + " histories over " + rounds.size() + " round(s) of differing leaves" + (problems.isEmpty() ? ""
                        : "; " + problems.size() + " failed, first: " + problems.get(0)));
            }
            end(null);
            if (problems.isEmpty() && pulled + pushed == 0) {
                quietPeers.add(peer);
                if (quietPeers.containsAll(node.upPeers()) && syncedWithEveryUpPeer()) {
                    backoff.quiet(); // converged with every up peer since the last change: nothing to do
                }
            } else {
                backoff.reset();
                quietPeers.clear();
            }
        }
    }

    private void end(String problem) {
        if (problem != null) {
            Logs.info(node.region() + ": anti-entropy exchange with " + problem);
        }
        running = false;
        lastEnd = node.now();
        if (problem != null) {
            backoff.reset();
            quietPeers.clear();
        }
    }
}
