package geoblocks.blockstore.component;

import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.layout.CorruptLayoutException;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutChange;
import geoblocks.blockstore.core.layout.LayoutChanges;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.core.layout.LayoutGossip;
import geoblocks.blockstore.core.layout.OwnerHandover;
import geoblocks.blockstore.meta.MetaLayoutStore;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.ClientOp.ClusterReq;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.LayoutSync;
import geoblocks.blockstore.wire.ClientOp.RegionReport;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * The cluster layout at this node (glue; the rules are in {@code core.layout}): keeps it in the
 * metadata engine ({@link MetaLayoutStore}), spreads it with {@link LayoutSync} when an anti-entropy
 * exchange starts and after an operator's change ({@link LayoutGossip}), applies the client's
 * {@code cluster} requests ({@link LayoutChanges}), and says whether this node may decide the
 * conditional writes of a name ({@link OwnerHandover}). Every layout it adopts goes to the node's
 * context (peers, addresses, owners) and to {@code changed} (the RTT monitor and the placement
 * component).
 */
final class Membership {
    private final NodeContext node;
    private final MetaLayoutStore store;
    private final OwnerHandover handover;
    /** Whether an anti-entropy exchange with every member, started at or after the given time, has completed. */
    private final LongPredicate syncedSince;
    private final Consumer<Layout> changed;

    /**
     * {@code keys}: the node keys the network checks (when it checks any, a region is added only with its key,
     * and a rotation of a key the config names keeps that key as the previous one).
     */
    Membership(NodeContext node, MetaLayoutStore store, LongPredicate syncedSince, Consumer<Layout> changed,
            MemberKeys keys) {
        this(node, store, syncedSince, changed, keys, new geoblocks.net.PeerVersions(), ClusterVersion.BUILD);
    }

    /**
     * {@code peers}: what each connected peer runs (its handshake said so), and where the lowest release a peer
     * may run is set; {@code release}: the release line this node runs as. IllegalStateException when the stored
     * layout's cluster version is above {@code release}: an older build must not run on a cluster that switched on
     * what it cannot read.
     */
    Membership(NodeContext node, MetaLayoutStore store, LongPredicate syncedSince, Consumer<Layout> changed,
            MemberKeys keys, geoblocks.net.PeerVersions peers, ClusterVersion release) {
        String tooOld = geoblocks.blockstore.core.layout.ClusterUpgrade.tooOld(store.current(), release);
        if (tooOld != null) {
            throw new IllegalStateException(tooOld);
        }
        this.peers = peers;
        this.release = release;
        peers.require(store.current().clusterVersion());
        this.keys = keys;
        this.node = node;
        this.store = store;
        this.handover = new OwnerHandover(node.region());
        this.syncedSince = syncedSince;
        this.changed = changed;
        handover.report(node.region(), store.current().version());
        node.layout(store.current());
        node.handover(this::refusal);
        node.layoutReports(this::reportedWithSelf);
    }

    private final MemberKeys keys;
    private final geoblocks.net.PeerVersions peers;
    private final ClusterVersion release;

    /** What member {@code region}'s latest handshake said it runs, or null (not connected, or no address). */
    private geoblocks.net.PeerVersions.Release releaseOf(String region) {
        NetAddress a = addressOrNull(region);
        return a == null ? null : peers.releaseOf(a);
    }

    /** The release line each member runs, as far as this node knows now: its own, and each connected peer's. */
    Map<String, ClusterVersion> running() {
        Map<String, ClusterVersion> out = new TreeMap<>();
        Layout l = store.current();
        for (String m : l.members()) {
            if (m.equals(node.region())) {
                out.put(m, release);
                continue;
            }
            geoblocks.net.PeerVersions.Release r = releaseOf(m);
            if (r != null) {
                out.put(m, r.line());
            }
        }
        return out;
    }

    /**
     * What each member runs, for status: the build its handshake named ("0.2.x" when none) and the file protocol
     * version agreed with it (-1 for this node itself); members not connected now are left out. {@code ownBuild}:
     * this node's.
     */
    List<geoblocks.blockstore.wire.ClientOp.MemberBuild> builds(String ownBuild) {
        List<geoblocks.blockstore.wire.ClientOp.MemberBuild> out = new ArrayList<>();
        for (String m : store.current().members()) {
            if (m.equals(node.region())) {
                out.add(new geoblocks.blockstore.wire.ClientOp.MemberBuild(m, ownBuild, -1)); // -1: itself, no peer
                continue;
            }
            geoblocks.net.PeerVersions.Release r = releaseOf(m);
            if (r != null) {
                out.add(new geoblocks.blockstore.wire.ClientOp.MemberBuild(m, r.describe(),
                        peers.agreedWith(addressOrNull(m), geoblocks.blockstore.wire.FileCodec.CODEC_ID)));
            }
        }
        return out;
    }

    /** The cluster version. */
    ClusterVersion clusterVersion() {
        return store.current().clusterVersion();
    }

    /** Whether {@code cluster finalize} here could raise the cluster version now (see ClusterUpgrade#note). */
    String finalizeNote() {
        return geoblocks.blockstore.core.layout.ClusterUpgrade.note(store.current(), release, running());
    }

    Layout current() {
        return store.current();
    }

    /** The last own key reported settled to the network (null: none yet). */
    private String settledOwnKey;

    /** Hands the network the node keys layout {@code l} names: each member's key, and its previous one while it rotates. */
    void tellKeys(Layout l) {
        Map<String, List<String>> byAddress = new TreeMap<>();
        l.regions().values().stream().filter(r -> r.member() && r.keyed()).forEach(r -> byAddress.put(r.address(),
                r.previousKey().isEmpty() ? List.of(r.key()) : List.of(r.key(), r.previousKey())));
        keys.layoutKeys(byAddress);
        ownKeySettled();
    }

    /**
     * Tells the network once every member has reported the current layout version, and so accepts the key it
     * names for this node (on each layout change and tick; reports arrive with anti-entropy).
     */
    void ownKeySettled() {
        Layout l = store.current();
        geoblocks.blockstore.core.layout.Region own = l.region(node.region());
        if (own == null || !own.keyed() || own.key().equals(settledOwnKey)) {
            return;
        }
        Map<String, Long> reported = handover.reported();
        for (String m : l.members()) {
            if (reported.getOrDefault(m, -1L) < l.version()) {
                return;
            }
        }
        settledOwnKey = own.key();
        keys.ownKeySettled(own.key());
    }

    /** Null when this node may decide the conditional writes of {@code name} now, else why not. */
    String refusal(String name) {
        Layout l = store.current();
        if (!l.moved(name)) {
            return handover.refusal(l, name, true);
        }
        OptionalLong since = handover.coveredSince(l, node.now());
        return handover.refusal(l, name, since.isPresent() && syncedSince.test(since.getAsLong()));
    }

    /** An anti-entropy exchange with {@code peer} starts: tell it this node's layout version. */
    void announce(String peer) {
        Layout l = store.current();
        node.send(node.addressOf(peer), new LayoutSync(0, l.version(), l.digest(), new byte[0]));
    }

    void onSync(NetAddress from, LayoutSync s) {
        String peer = node.regionOf(from).orElse(null);
        if (peer == null) {
            return;
        }
        Layout theirs = null;
        if (s.layout().length > 0) {
            try {
                theirs = LayoutCodec.decode(s.layout());
            } catch (CorruptLayoutException e) {
                Logs.warn(node.region() + ": ignored the layout " + peer + " sent: " + e.getMessage());
                return;
            }
        }
        handover.report(peer, s.version());
        LayoutGossip.Decision d = LayoutGossip.onSync(store.current(), s.version(), s.digest(), theirs);
        if (d.adopt() != null) {
            adopt(d.adopt(), "from " + peer);
        }
        Layout mine = store.current();
        handover.coveredSince(mine, node.now());
        switch (d.reply()) {
            case VERSION -> node.send(from, new LayoutSync(0, mine.version(), mine.digest(), new byte[0]));
            case WHOLE -> node.send(from, new LayoutSync(0, mine.version(), mine.digest(), LayoutCodec.encode(mine)));
            case NONE -> { }
        }
    }

    private boolean adopt(Layout l, String how) {
        try {
            if (!store.adopt(l)) {
                return false;
            }
        } catch (IOException e) {
            Logs.warn(node.region() + ": storing cluster layout version " + l.version() + " failed, keeping version "
                    + store.current().version() + ": " + e.getMessage());
            return false;
        }
        node.layout(l);
        peers.require(l.clusterVersion());
        if (l.clusterVersion().compareTo(release) > 0) {
            Logs.warn(node.region() + ": the cluster's version is now " + l.clusterVersion() + ", above release "
                    + release + " which this node runs: upgrade it (its peers refuse it from now on)");
        }
        handover.report(node.region(), l.version());
        Logs.info(node.region() + ": cluster layout version " + l.version() + " " + how + ": members " + l.members()
                + ", owners " + l.owners());
        changed.accept(l);
        return true;
    }

    /** A client's {@code cluster} request: show the layout, or apply a change and send it to every member. */
    void onRequest(NetAddress client, ClusterReq r) {
        List<String> warnings = List.of();
        if (!r.action().equals("show")) {
            Layout before = store.current();
            LayoutChanges.Applied applied;
            try {
                LayoutChange change = r.action().equals("finalize") ? null : switch (r.action()) {
                    case "add" -> {
                        if (keys.required() && r.key().isEmpty()) {
                            throw new IllegalArgumentException("the cluster's nodes prove node keys: add region " + r.region()
                                    + " with its node's key (cluster add ... --key ed25519:...; the node prints it at start,"
                                    + " and keeps it in DATA/node.key), or it could never be told from an impostor");
                        }
                        yield new LayoutChange.Add(r.region(), r.address(), r.zone().isEmpty() ? null : r.zone(),
                                r.capacityBytes(), r.key());
                    }
                    case "drain" -> new LayoutChange.Drain(r.region());
                    case "set" -> new LayoutChange.Set(r.region(), r.zone().isEmpty() ? null : r.zone(), r.capacityBytes());
                    case "remove" -> new LayoutChange.Remove(r.region());
                    case "rekey" -> {
                        geoblocks.blockstore.core.layout.Region g = store.current().region(r.region());
                        // a key only the config names is the one peers check until the layout names another
                        yield new LayoutChange.Rekey(r.region(), r.key(), g == null ? "" : keys.checkedKey(g.address()));
                    }
                    case "retire-key" -> new LayoutChange.RetireKey(r.region());
                    default -> throw new IllegalArgumentException("cluster action must be show, add, set, drain, remove,"
                            + " rekey, retire-key or finalize, was '" + r.action() + "'");
                };
                applied = change == null
                        ? new LayoutChanges.Applied(geoblocks.blockstore.core.layout.ClusterUpgrade.raise(before, release,
                                running()), List.of())
                        : LayoutChanges.apply(before, change, reportedWithSelf(), drained(before), r.force());
            } catch (IllegalArgumentException e) {
                node.send(client, new Failed(r.req(), FailureCode.INVALID, e.getMessage()));
                return;
            } catch (IllegalStateException e) {
                node.send(client, new Failed(r.req(), FailureCode.PRECONDITION_FAILED, e.getMessage()));
                return;
            }
            if (!adopt(applied.layout(), "applied (" + r.action() + (change(r) ? " " + r.region() : " to cluster version "
                    + applied.layout().clusterVersion()) + ")")) {
                node.send(client, new Failed(r.req(), FailureCode.INTERNAL, "storing cluster layout version "
                        + applied.layout().version() + " failed; see the node's log"));
                return;
            }
            warnings = applied.warnings();
            warnings.forEach(w -> Logs.warn(node.region() + ": " + w));
            Set<String> tell = new LinkedHashSet<>(before.members());
            tell.addAll(applied.layout().members());
            tell.remove(node.region());
            Layout l = applied.layout();
            byte[] whole = LayoutCodec.encode(l);
            for (String peer : tell) {
                NetAddress to = before.members().contains(peer) && !l.members().contains(peer)
                        ? parseOld(before, peer) : addressOrNull(peer);
                if (to != null) {
                    node.send(to, new LayoutSync(0, l.version(), l.digest(), whole));
                }
            }
        }
        node.send(client, reply(r.req(), warnings));
    }

    private static boolean change(ClusterReq r) {
        return !r.action().equals("finalize");
    }

    private NetAddress addressOrNull(String peer) {
        try {
            return node.addressOf(peer);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The address a region had in {@code before} (it was just removed), or null when it does not resolve. */
    private static NetAddress parseOld(Layout before, String peer) {
        try {
            return NetAddress.parse(before.region(peer).address());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private Map<String, Long> reportedWithSelf() {
        Map<String, Long> m = new TreeMap<>(handover.reported());
        m.put(node.region(), store.current().version());
        return m;
    }

    /**
     * The draining members of {@code l} that hold no copy of a version this node keeps: the
     * rebalancer's last full pass began with them not active and found no kept version there.
     */
    private Set<String> drained(Layout l) {
        Set<String> out = new TreeSet<>();
        for (String r : node.rebalance().drained()) {
            if (l.members().contains(r) && !l.placeable(r)) {
                out.add(r);
            }
        }
        return out;
    }

    ClusterReply reply(long req, List<String> warnings) {
        Layout l = store.current();
        Map<String, ManifestStore.Placed> placed = node.manifests().placed();
        Map<String, Long> reported = handover.reported();
        Rebalancer.Figures f = node.rebalance();
        List<RegionReport> regions = new ArrayList<>();
        for (String id : l.regions().keySet()) {
            ManifestStore.Placed p = placed.get(id);
            boolean draining = l.region(id).member() && !l.placeable(id);
            long pending = !draining ? -1 : f.drainPendingByRegion().containsKey(id) ? f.drainPendingByRegion().get(id)
                    : f.drained().contains(id) ? 0 : -1; // -1: no full pass has counted it since it drains
            regions.add(new RegionReport(id, reported.getOrDefault(id, -1L), p == null ? 0 : p.blocks(),
                    p == null ? 0 : p.bytes(), pending, f.shortBy().getOrDefault(id, 0L)));
        }
        return new ClusterReply(req, LayoutCodec.encode(l), regions, warnings);
    }
}
