package geoblocks.blockstore.component;

import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.layout.ClusterUpgrade;
import geoblocks.blockstore.core.layout.CorruptLayoutException;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutChange;
import geoblocks.blockstore.core.layout.LayoutChanges;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.core.layout.LayoutGossip;
import geoblocks.blockstore.core.layout.OwnerHandover;
import geoblocks.blockstore.core.layout.Region;
import geoblocks.blockstore.meta.MetaLayoutStore;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.ClientOp.ClusterReq;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.port.LayoutPort;
import geoblocks.blockstore.wire.PeerOp.LayoutSync;
import geoblocks.blockstore.wire.ClientOp.RegionReport;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cluster layout at this node (the membership component's logic; the rules are in {@code core.layout}):
 * keeps it in the metadata engine ({@link MetaLayoutStore}), spreads it with {@link LayoutSync} after an
 * operator's change and answers the {@link LayoutSync} of peers ({@link LayoutGossip}), applies the admin's
 * {@code cluster} requests ({@link LayoutChanges}), tracks the layout version each region reported, and
 * hands the network the node keys the layout names. Every layout it adopts, and every report, goes to its
 * {@link Context} (the component tells the rest of the node on its layout port). It sees the node only
 * through that narrow context; what it needs of the file service (replicas, the rebalancer's findings) comes
 * with each request as {@link LayoutPort.ClusterFigures}.
 */
final class Membership {
    /** What the membership may do and know of its node. */
    interface Context {
        String region();

        /** The clock, in nanoseconds. */
        long now();

        void send(NetAddress to, FileOp op);

        /** Where region {@code r} is (a member's address, else where a removed region was), or null. */
        NetAddress addressOrNull(String r);

        /** The region of a member's address, empty for anyone else. */
        Optional<String> regionOf(NetAddress address);

        /** Layout {@code l} was adopted: the node acts on it from now on. */
        void adopted(Layout l);

        /** The layout version each region reported changed ({@code reported}: this node's own included). */
        void reported(Map<String, Long> reported);
    }

    private final Context node;
    private final MetaLayoutStore store;
    private final OwnerHandover handover;
    private final MemberKeys keys;
    private final MemberReleases releases;
    private final PeerVersions peers;
    private final ClusterVersion release;
    /** The last own key reported settled to the network (null: none yet). */
    private String settledOwnKey;

    /**
     * {@code keys}: the node keys the network checks (when it checks any, a region is added only with its key,
     * and a rotation of a key the config names keeps that key as the previous one); {@code peers}: what each
     * connected peer runs (its handshake said so), and where the lowest release a peer may run is set;
     * {@code release}: the release line this node runs as. IllegalStateException when the stored layout's
     * cluster version is above {@code release}: an older build must not run on a cluster that switched on what
     * it cannot read.
     */
    Membership(Context node, MetaLayoutStore store, MemberKeys keys, PeerVersions peers,
            ClusterVersion release) {
        String tooOld = ClusterUpgrade.tooOld(store.current(), release);
        if (tooOld != null) {
            throw new IllegalStateException(tooOld);
        }
        this.peers = peers;
        this.release = release;
        this.releases = new MemberReleases(node.region(), release, peers);
        peers.require(store.current().clusterVersion());
        this.keys = keys;
        this.node = node;
        this.store = store;
        this.handover = new OwnerHandover(node.region());
        handover.report(node.region(), store.current().version());
    }

    Layout current() {
        return store.current();
    }

    /** The highest layout version each region reported, this node's own (its current layout) included. */
    Map<String, Long> reportedWithSelf() {
        Map<String, Long> m = new TreeMap<>(handover.reported());
        m.put(node.region(), store.current().version());
        return m;
    }

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
     * names for this node (after each layout change and each report).
     */
    void ownKeySettled() {
        Layout l = store.current();
        Region own = l.region(node.region());
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
        node.reported(reportedWithSelf());
        ownKeySettled();
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
        peers.require(l.clusterVersion());
        if (l.clusterVersion().compareTo(release) > 0) {
            Logs.warn(node.region() + ": the cluster's version is now " + l.clusterVersion() + ", above release "
                    + release + " which this node runs: upgrade it (its peers refuse it from now on)");
        }
        handover.report(node.region(), l.version());
        Logs.info(node.region() + ": cluster layout version " + l.version() + " " + how + ": members " + l.members()
                + ", owners " + l.owners());
        node.adopted(l);
        tellKeys(l);
        return true;
    }

    /**
     * An admin's {@code cluster} request: show the layout, or apply a change and send it to every member;
     * {@code f}: the node's figures as the request is handled.
     */
    void onRequest(NetAddress client, ClusterReq r, LayoutPort.ClusterFigures f) {
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
                        Region g = store.current().region(r.region());
                        // a key only the config names is the one peers check until the layout names another
                        yield new LayoutChange.Rekey(r.region(), r.key(), g == null ? "" : keys.checkedKey(g.address()));
                    }
                    case "retire-key" -> new LayoutChange.RetireKey(r.region());
                    default -> throw new IllegalArgumentException("cluster action must be show, add, set, drain, remove,"
                            + " rekey, retire-key or finalize, was '" + r.action() + "'");
                };
                applied = change == null
                        ? new LayoutChanges.Applied(ClusterUpgrade.raise(before, release,
                                releases.running(before, node::addressOrNull)), List.of())
                        : LayoutChanges.apply(before, change, reportedWithSelf(), drained(before, f), r.force());
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
                        ? parseOld(before, peer) : node.addressOrNull(peer);
                if (to != null) {
                    node.send(to, new LayoutSync(0, l.version(), l.digest(), whole));
                }
            }
        }
        node.send(client, reply(r.req(), warnings, f));
    }

    private static boolean change(ClusterReq r) {
        return !r.action().equals("finalize");
    }

    /** The address a region had in {@code before} (it was just removed), or null when it does not resolve. */
    private static NetAddress parseOld(Layout before, String peer) {
        try {
            return NetAddress.parse(before.region(peer).address());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The draining members of {@code l} that hold no copy of a version this node keeps: the
     * rebalancer's last full pass began with them not active and found no kept version there.
     */
    private static Set<String> drained(Layout l, LayoutPort.ClusterFigures f) {
        Set<String> out = new TreeSet<>();
        for (String r : f.drained()) {
            if (l.members().contains(r) && !l.placeable(r)) {
                out.add(r);
            }
        }
        return out;
    }

    ClusterReply reply(long req, List<String> warnings, LayoutPort.ClusterFigures f) {
        Layout l = store.current();
        Map<String, ManifestStore.Placed> placed = f.placed();
        Map<String, Long> reported = handover.reported();
        List<RegionReport> regions = new ArrayList<>();
        for (String id : l.regions().keySet()) {
            ManifestStore.Placed p = placed.get(id);
            boolean draining = l.region(id).member() && !l.placeable(id);
            long pending = !draining ? -1 : f.drainPending().containsKey(id) ? f.drainPending().get(id)
                    : f.drained().contains(id) ? 0 : -1; // -1: no full pass has counted it since it drains
            regions.add(new RegionReport(id, reported.getOrDefault(id, -1L), p == null ? 0 : p.blocks(),
                    p == null ? 0 : p.bytes(), pending, f.shortBy().getOrDefault(id, 0L)));
        }
        return new ClusterReply(req, LayoutCodec.encode(l), regions, warnings);
    }
}
