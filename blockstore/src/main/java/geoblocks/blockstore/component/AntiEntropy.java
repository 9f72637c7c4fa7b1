package geoblocks.blockstore.component;

import geoblocks.blockstore.core.AntiEntropyPlan;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.FileOp.NameDigest;
import geoblocks.blockstore.wire.FileOp.SyncDigest;
import geoblocks.blockstore.wire.FileOp.SyncNames;
import geoblocks.net.NetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
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
 * turn. It sends the digest of every bucket of names ({@link SyncDigest}); the peer answers with the
 * buckets that differ and its name digests in them ({@link SyncNames}); this node then pulls the
 * history of every name the peer has differently (a lookup) and pushes its own (a publication), a
 * few at a time; both sides merge ({@link Versions#merge}), so after the exchange they hold the
 * same versions of those names. Converged nodes exchange one small message each way. A node that
 * lost its disk gets every manifest back this way (its scrubber then restores its replicas); after
 * a partition heals, both sides get what the other side wrote. Manifests travel over TCP.
 */
final class AntiEntropy {
    /** Name digests per SyncNames message (about 44 KB at the longest names: below Kompics' 64 KiB frames). */
    static final int NAMES_PER_MESSAGE = 400;
    /** Pulls and pushes of one exchange in flight at once. */
    static final int IN_FLIGHT = 8;

    private final Node node;
    private final long intervalNanos;
    private int turn;
    private boolean running;
    private long nextAt = Long.MIN_VALUE;
    /** Peers an exchange this node started has completed with, every name in it transferred. */
    private final Set<String> synced = new TreeSet<>();
    /** When (node.now()) the last exchange this node started with each peer completed, every name transferred. */
    private final Map<String, Long> syncedAt = new java.util.HashMap<>();

    /** Whether this node may decide creates yet (see {@link #notReadyToDecideCreates}). */
    private boolean decidesCreates;

    AntiEntropy(Node node, long intervalNanos, boolean startedEmpty) {
        this.node = node;
        this.intervalNanos = intervalNanos;
        this.decidesCreates = !startedEmpty || node.peerRegions().isEmpty();
    }

    /** Starts the next exchange when the interval has passed and none is running. */
    void tick(long now) {
        if (running || (nextAt != Long.MIN_VALUE && now - nextAt < 0)) {
            return;
        }
        List<String> up = node.upPeers();
        if (up.isEmpty()) {
            nextAt = now + intervalNanos;
            return;
        }
        start(up.get(Math.floorMod(turn++, up.size())));
    }

    private void start(String peer) {
        running = true;
        NetAddress addr = node.addressOf(peer);
        List<Long> digests = new ArrayList<>();
        for (long d : node.manifests().bucketDigests()) {
            digests.add(d);
        }
        Set<Integer> buckets = new TreeSet<>();
        Map<String, Long> theirs = new TreeMap<>();
        long req = node.expect(addr, Pending.Waiter.of(op -> {
            if (op instanceof SyncNames s) {
                for (int b : s.buckets()) {
                    if (b < 0 || b >= ManifestStore.BUCKETS) {
                        end(peer + " named bucket " + b);
                        return true;
                    }
                    buckets.add(b);
                }
                try {
                    for (NameDigest n : s.names()) {
                        theirs.put(Manifest.validateName(n.name()), n.digest());
                    }
                } catch (IllegalArgumentException e) {
                    end(peer + " sent a bad name: " + e.getMessage());
                    return true;
                }
                if (s.more()) {
                    return false;
                }
                reconcile(peer, addr, buckets, theirs);
                return true;
            }
            if (op instanceof Failed f) {
                end(peer + ": " + f.error());
                return true;
            }
            return false;
        }, why -> end(peer + ": " + why)));
        node.send(addr, new SyncDigest(req, digests));
    }

    /** A peer's digests: answers with the buckets that differ and this node's name digests in them. */
    void onDigest(NetAddress peer, SyncDigest d) {
        if (d.buckets().size() != ManifestStore.BUCKETS) {
            node.send(peer, new Failed(d.req(), "anti-entropy digests must cover " + ManifestStore.BUCKETS
                    + " buckets, got " + d.buckets().size()));
            return;
        }
        long[] theirs = new long[ManifestStore.BUCKETS];
        for (int b = 0; b < theirs.length; b++) {
            theirs[b] = d.buckets().get(b);
        }
        Set<Integer> differing = AntiEntropyPlan.differing(node.manifests().bucketDigests(), theirs);
        List<NameDigest> names = new ArrayList<>();
        node.manifests().digests(differing).forEach((n, digest) -> names.add(new NameDigest(n, digest)));
        List<Integer> buckets = List.copyOf(differing);
        int at = 0;
        do {
            int to = Math.min(names.size(), at + NAMES_PER_MESSAGE);
            node.send(peer, new SyncNames(d.req(), at == 0 ? buckets : List.of(), List.copyOf(names.subList(at, to)),
                    to < names.size()));
            at = to;
        } while (at < names.size());
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

    /** True once an exchange with every peer that is up has completed (and at least one is up). */
    private boolean syncedWithEveryUpPeer() {
        List<String> up = node.upPeers();
        return !up.isEmpty() && synced.containsAll(up);
    }

    private void reconcile(String peer, NetAddress addr, Set<Integer> buckets, Map<String, Long> theirs) {
        AntiEntropyPlan.Plan plan = AntiEntropyPlan.plan(node.manifests().digests(buckets), theirs);
        if (plan.isEmpty()) {
            synced.add(peer);
            syncedAt.put(peer, node.now());
            end(null);
            return;
        }
        ArrayDeque<Runnable> work = new ArrayDeque<>();
        int[] left = {plan.pull().size() + plan.push().size()};
        List<String> problems = new ArrayList<>();
        Consumer<String> finished = problem -> {
            if (problem != null) {
                problems.add(problem);
            }
            left[0]--;
            Runnable r = work.poll();
            if (r != null) {
                r.run();
            } else if (left[0] == 0) {
                if (problems.isEmpty()) {
                    synced.add(peer);
                    syncedAt.put(peer, node.now());
                }
                if (plan.pull().size() + plan.push().size() > problems.size()) {
                    Logs.info(node.region() + ": anti-entropy with " + peer + ": pulled " + plan.pull().size()
                            + ", pushed " + plan.push().size() + " histories" + (problems.isEmpty() ? ""
                            : "; " + problems.size() + " failed, first: " + problems.get(0)));
                }
                end(null);
            }
        };
        for (String name : plan.pull()) {
            work.add(() -> pull(addr, name, finished));
        }
        for (String name : plan.push()) {
            work.add(() -> push(addr, name, finished));
        }
        for (int i = 0; i < IN_FLIGHT && !work.isEmpty(); i++) {
            work.poll().run();
        }
    }

    private void pull(NetAddress addr, String name, Consumer<String> finished) {
        ManifestLookup.pull(node, addr, name, kept -> finished.accept(null),
                why -> finished.accept("pulling '" + name + "': " + why));
    }

    private void push(NetAddress addr, String name, Consumer<String> finished) {
        Optional<ManifestHistory> h = node.manifests().history(name);
        if (h.isEmpty()) {
            finished.accept(null); // dropped by the retention meanwhile: nothing to push
            return;
        }
        byte[] bytes = ManifestCodec.encodeHistory(h.get());
        long req = node.expect(addr, Pending.Waiter.until(Done.class,
                why -> finished.accept(why == null ? null : "pushing '" + name + "': " + why)));
        Assembly.split(bytes, node.settings().chunkBytes(), (off, part) ->
                node.send(addr, new ManifestPart(req, true, off, bytes.length, part)));
    }

    private void end(String problem) {
        if (problem != null) {
            Logs.info(node.region() + ": anti-entropy exchange with " + problem);
        }
        running = false;
        nextAt = node.now() + intervalNanos;
    }
}
