package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBudget;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.TransferCounters;
import geoblocks.blockstore.core.placement.PlacementRequest;
import geoblocks.blockstore.core.placement.PolicyCatalog;
import geoblocks.blockstore.core.placement.PolicySet;
import geoblocks.blockstore.port.PlacementPort;
import geoblocks.blockstore.port.BlockStorePort;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.BlockStorePort.BlockStored;
import geoblocks.blockstore.port.BlockStorePort.ReadBlock;
import geoblocks.blockstore.port.BlockStorePort.StoreBlock;
import geoblocks.blockstore.port.RttPort;
import geoblocks.blockstore.port.RttPort.RttUpdate;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.*;
import geoblocks.net.ClusterConfig;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.WireStats;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.ledbat.port.SendProgress;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.ConnectionStatus;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * The file service of a node: coordinates uploads and downloads for clients, serves other nodes'
 * replica, fetch, lookup and delete requests, and answers list, stat and status. It uses the local
 * BlockStore through its port and the RTT monitor's latest table for placement and reads. A
 * message that cannot be handled is answered with {@link Failed} or dropped; it never stops the
 * component.
 */
public final class FileService extends ComponentDefinition implements Node {
    private static final Logger LOG = LoggerFactory.getLogger(FileService.class);
    private static final int LIST_LIMIT = 200;
    /** Request id of connection warm-ups; real ids start at 1. */
    private static final long WARM_UP = 0;

    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);
    private final Positive<BlockStorePort> store = requires(BlockStorePort.class);
    private final Positive<RttPort> rttPort = requires(RttPort.class);
    /** Background block streams (scrub repair, re-replication) when background-transport = ledbat. */
    private final Positive<LedbatPort> ledbat = requires(LedbatPort.class);
    /** Connection failures (NettyNetwork); left unconnected in the simulator. */
    private final Positive<NetworkControl> control = requires(NetworkControl.class);
    /** Where blocks go: every upload and re-replication asks the placement component. */
    private final Positive<PlacementPort> placementPort = requires(PlacementPort.class);
    private final Placements placements = new Placements(e -> trigger(e, placementPort), this::newReq);

    private final NetAddress self;
    private final String region;
    private final ClusterConfig cluster;
    private final NodeSettings settings;
    private final ManifestStore manifests;
    private final PolicyCatalog policies;
    private final Random random;
    private final MemoryBudget budget;
    private final Pending pending = new Pending();
    private final TransferCounters counters = new TransferCounters();
    private final BackgroundTransfers background;
    private final Map<Long, Consumer<BlockStored>> storeWaiters = new HashMap<>();
    private final Map<Long, Consumer<BlockRead>> readWaiters = new HashMap<>();
    private final Replicator replicator;
    private final Uploads uploads;
    private final Downloads downloads = new Downloads(this);
    private final ReplicaServer replicas;
    private final Scrubber scrubber;
    private final ManifestSync sync = new ManifestSync(this);
    private final Rereplicator rereplicator;
    private long lastTick = System.nanoTime();
    private final long startNanos = System.nanoTime();
    private RttTable rtt;
    private long reqSeq;
    private long dropped;
    /** Channels the network closed over errors (bad frames, resets) or could not open. */
    private long channelErrors;

    public FileService(FileServiceInit init) {
        this.self = init.self;
        this.region = init.region;
        this.cluster = init.cluster;
        this.settings = init.settings;
        this.manifests = init.manifests;
        this.policies = init.policies;
        this.random = new Random(init.seed);
        this.budget = new MemoryBudget(settings.memoryBudgetBytes());
        List<String> peers = peerRegions();
        this.rtt = new RttTable(region, Map.of(), Set.copyOf(peers));
        this.replicas = new ReplicaServer(this, d -> trigger(d, store));
        this.background = new BackgroundTransfers(this, e -> trigger(e, ledbat), counters);
        BackgroundTransfers viaLedbat = settings.backgroundOverLedbat() ? background : null;
        this.scrubber = new Scrubber(this, settings.scrubBytesPerSecond(), settings.scrubPassIntervalMs() * 1_000_000L,
                viaLedbat);
        ReplicaCopy copies = new ReplicaCopy(this, viaLedbat);
        this.rereplicator = new Rereplicator(this, settings.replaceAfterMs() * 1_000_000L, copies);
        this.replicator = new Replicator(this, init.replicationQueue, copies);
        this.uploads = new Uploads(this, replicator);
        onStart(s -> {
            SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(250, 250);
            spt.setTimeoutEvent(new Tick(spt));
            trigger(spt, timer);
        });
        handle(timer, Tick.class, t -> {
            pending.expire(now(), "");
            long idle = 2 * settings.rpcTimeoutMs() * 1_000_000L;
            uploads.expire(now(), idle);
            downloads.expire(now(), idle);
            replicas.expire(now(), idle);
            long now = now();
            scrubber.tick(now, now - lastTick);
            rereplicator.tick(now);
            replicator.tick();
            background.tick(now);
            lastTick = now;
            logRefusedInput();
        });
        handle(rttPort, RttUpdate.class, u -> {
            for (String peer : u.table().down()) {
                if (rtt.isUp(peer)) { // just went down: stop waiting for it
                    pending.failPeer(addressOf(peer), peer + " stopped answering RTT probes");
                }
            }
            for (String peer : u.table().upRttMs().keySet()) {
                if (!rtt.isUp(peer)) {
                    // Just came up (or restarted): open the TCP connection now with a throwaway
                    // request. When two nodes connect to each other at once, Kompics' Netty keeps
                    // one channel and drops messages already written to the other ("Duplicate TCP
                    // channel"); this makes that race happen on this message, not on replica data.
                    send(addressOf(peer), new StatusReq(WARM_UP));
                }
            }
            rtt = u.table();
            sync.onRtt(rtt);
            rereplicator.onRtt(rtt, now());
        });
        handle(control, ConnectionStatus.Dropped.class, d -> {
            if (d.last && d.peer != null) {
                NetAddress peer = new NetAddress(d.peer.getIp(), d.peer.getPort());
                pending.failPeer(peer, "connection to " + peer + " dropped");
            }
        });
        handle(placementPort, PlacementPort.Placed.class, placements::onPlaced);
        handle(placementPort, PlacementPort.PlacementRefused.class, placements::onRefused);
        handle(store, BlockStored.class, s -> complete(storeWaiters, s.req(), s));
        handle(store, BlockRead.class, r -> complete(readWaiters, r.req(), r));
        handle(net, FileMsg.class, this::onMsg);
        handle(ledbat, StreamOpened.class, background::onOpened);
        handle(ledbat, SendProgress.class, background::onProgress);
        handle(ledbat, DataReceived.class, background::onData);
        handle(ledbat, StreamClosed.class, background::onClosed);
        handle(ledbat, StreamFailed.class, background::onFailed);
        handle(control, NetworkException.class, e -> {
            channelErrors++;
            if (e.peer != null) {
                NetAddress peer = new NetAddress(e.peer.getIp(), e.peer.getPort());
                pending.failPeer(peer, "cannot reach " + peer + ": " + e.message);
            }
        });
    }

    private long loggedRefused;
    private long lastRefusedLogNanos;

    /** At most every 10 s: one line with how much network input was refused since the last one. */
    /** Input refused as malformed or unexpected: undecodable, unknown requests, channel errors, refused streams. */
    private long malformedOrUnexpected() {
        return WireStats.malformedCount() + dropped + channelErrors + background.refused;
    }

    /** Bytes of block data a node-to-node TCP message carries (0 for other messages), for the transfer counters. */
    private static int tcpBlockBytes(FileOp op) {
        if (op instanceof ReplicaData p) {
            return p.data().length;
        }
        return op instanceof BlockData p ? p.data().length : 0;
    }

    private void logRefusedInput() {
        long refused = malformedOrUnexpected() + WireStats.unauthenticatedCount();
        long now = now();
        if (refused != loggedRefused && now - lastRefusedLogNanos > 10_000_000_000L) {
            LOG.warn("{}: refused {} network messages in the last period ({} malformed/unexpected, {} unauthenticated so far)",
                    region, refused - loggedRefused, malformedOrUnexpected(), WireStats.unauthenticatedCount());
            loggedRefused = refused;
            lastRefusedLogNanos = now;
        }
    }

    private static <T> void complete(Map<Long, Consumer<T>> waiters, long req, T answer) {
        Consumer<T> w = waiters.remove(req);
        if (w != null) {
            w.accept(answer);
        }
    }

    private void onMsg(FileMsg msg) {
        NetAddress from = msg.getHeader().source();
        FileOp op = msg.op();
        try {
            dispatch(from, op);
        } catch (RuntimeException e) {
            if (dropped++ % 1000 == 0) {
                LOG.warn("{}: dropped {} from {} ({} dropped so far): {}", region,
                        op.getClass().getSimpleName(), from, dropped, e.toString());
            }
        }
    }

    private void dispatch(NetAddress from, FileOp op) {
        counters.tcpReceived(tcpBlockBytes(op));
        if (op instanceof PutBegin p) {
            uploads.onBegin(from, p);
        } else if (op instanceof PutData p) {
            uploads.onData(from, p);
        } else if (op instanceof GetBegin p) {
            downloads.onBegin(from, p);
        } else if (op instanceof GetAck p) {
            downloads.onAck(from, p);
        } else if (op instanceof ListReq p) {
            onList(from, p);
        } else if (op instanceof StatReq p) {
            ManifestLookup.find(this, p.name(), m -> {
                if (m.isPresent()) {
                    sendPending(from, p.req(), m.get());
                    Downloads.sendManifest(this, from, p.req(), m.get());
                } else {
                    send(from, new Failed(p.req(), "no such file '" + p.name() + "'"));
                }
            });
        } else if (op instanceof DeleteReq p) {
            onDelete(from, p);
        } else if (op instanceof StatusReq p) {
            onStatus(from, p);
        } else if (op instanceof PoliciesReq p) {
            send(from, new PoliciesReply(p.req(), region, policies.policies().stream()
                    .map(d -> new PolicyInfo(d.name(), d.kind(), d.copies(), d.rules())).toList()));
        } else if (isNodeRequest(op)) {
            if (cluster.regionOf(from).isEmpty()) {
                send(from, new Failed(op.req(), "node-to-node request from " + from + ", not a cluster member"));
            } else if (op instanceof ReplicaData p) {
                replicas.onReplicaData(from, p);
            } else if (op instanceof FetchBlock p) {
                replicas.onFetch(from, p);
            } else if (op instanceof LookupManifest p) {
                replicas.onLookup(from, p);
            } else if (op instanceof DeleteFile p) {
                replicas.onDelete(from, p);
            } else if (op instanceof BackgroundFetch p) {
                background.onFetch(from, p);
            } else if (op instanceof BackgroundOffer p) {
                background.onOffer(from, p);
            } else {
                replicas.onPublish(from, (ManifestPart) op);
            }
        } else if (op instanceof StatusReply && op.req() == WARM_UP) {
            return; // answer to a connection warm-up
        } else if (!pending.reply(from, op, now())) {
            dropped++;
        }
    }

    private static boolean isNodeRequest(FileOp op) {
        return op instanceof ReplicaData || op instanceof FetchBlock || op instanceof LookupManifest
                || op instanceof DeleteFile || op instanceof BackgroundFetch || op instanceof BackgroundOffer || (op instanceof ManifestPart p && p.publish());
    }

    /** Before a stat's manifest: the copies this node's replication queue still owes for it (see StatPending). */
    private void sendPending(NetAddress client, long req, Manifest m) {
        boolean known = m.uploadedAt().equals(region);
        List<PendingCopy> copies = new ArrayList<>();
        if (known) {
            replicator.pending(m).forEach((block, regions) -> regions.forEach(r -> copies.add(new PendingCopy(block, r))));
        }
        int from = 0;
        do {
            int to = Math.min(copies.size(), from + FileCodec.MAX_LIST);
            send(client, new StatPending(req, known, List.copyOf(copies.subList(from, to))));
            from = to;
        } while (from < copies.size());
    }

    private void onList(NetAddress from, ListReq l) {
        int limit = Math.max(1, Math.min(l.limit(), LIST_LIMIT));
        List<Manifest> page = manifests.list(l.after(), limit + 1);
        List<ListEntry> entries = new ArrayList<>();
        for (Manifest m : page.subList(0, Math.min(limit, page.size()))) {
            entries.add(new ListEntry(m.name(), m.size(), m.blockSize(), m.policy(), m.uploadedAt(), m.createdMillis()));
        }
        send(from, new ListPart(l.req(), entries, page.size() > limit));
    }

    private void onStatus(NetAddress from, StatusReq s) {
        List<PeerRtt> peers = new ArrayList<>();
        for (String p : peerRegions()) {
            peers.add(new PeerRtt(p, rtt.rttMs(p).orElse(-1.0)));
        }
        send(from, new StatusReply(s.req(), region, peers, malformedOrUnexpected(),
                WireStats.unauthenticatedCount(), scrubber.scrubbed, scrubber.repaired, scrubber.unrepairable,
                new Transfers(counters.tcpSent(), counters.tcpReceived(), counters.ledbatSent(), counters.ledbatReceived())));
    }

    private void onDelete(NetAddress client, DeleteReq d) {
        ManifestLookup.find(this, d.name(), found -> {
            if (found.isEmpty()) {
                send(client, new Failed(d.req(), "no such file '" + d.name() + "'"));
                return;
            }
            List<String> notes = new ArrayList<>(List.of(replicas.deleteHere(d.name())));
            List<String> up = new ArrayList<>();
            for (String p : peerRegions()) {
                if (rtt.isUp(p)) {
                    up.add(p);
                } else {
                    notes.add(p + " is down and keeps its copy");
                }
            }
            int[] waiting = {up.size()};
            Runnable answered = () -> {
                if (--waiting[0] == 0) {
                    send(client, new Done(d.req(), String.join("; ", notes)));
                }
            };
            if (up.isEmpty()) {
                send(client, new Done(d.req(), String.join("; ", notes)));
            }
            for (String p : up) {
                NetAddress addr = addressOf(p);
                long req = expect(addr, Pending.Waiter.of(op -> {
                    notes.add(op instanceof Done done ? done.info() : p + ": " + ((Failed) op).error());
                    answered.run();
                    return true;
                }, why -> {
                    notes.add(p + ": " + why);
                    answered.run();
                }));
                send(addr, new DeleteFile(req, d.name()));
            }
        });
    }

    // ---- Node: what the parts may use

    @Override
    public NetAddress self() {
        return self;
    }

    @Override
    public String region() {
        return region;
    }

    @Override
    public NodeSettings settings() {
        return settings;
    }

    @Override
    public RttTable rtt() {
        return rtt;
    }

    @Override
    public NetAddress addressOf(String r) {
        return cluster.address(r);
    }

    @Override
    public List<String> lookupPeers() {
        if (now() - startNanos < 2 * settings.downAfterMs() * 1_000_000L) {
            return peerRegions(); // just started: the RTT table does not know who is up yet
        }
        List<String> up = new ArrayList<>();
        for (String p : peerRegions()) {
            if (rtt.isUp(p)) {
                up.add(p);
            }
        }
        return up;
    }

    @Override
    public List<String> peerRegions() {
        List<String> peers = new ArrayList<>(cluster.regionIds());
        peers.remove(region);
        return peers;
    }

    @Override
    public ManifestStore manifests() {
        return manifests;
    }

    @Override
    public MemoryBudget budget() {
        return budget;
    }

    @Override
    public Random random() {
        return random;
    }

    @Override
    public long now() {
        return System.nanoTime();
    }

    @Override
    public long newReq() {
        return ++reqSeq;
    }

    @Override
    public void send(NetAddress to, FileOp op) {
        counters.tcpSent(tcpBlockBytes(op));
        trigger(new FileMsg(new NetHeader(self, to, Transport.TCP), op), net);
    }

    @Override
    public long expect(NetAddress peer, Pending.Waiter waiter) {
        long req = newReq();
        pending.add(req, peer, waiter, settings.rpcTimeoutMs() * 1_000_000L, now());
        return req;
    }

    @Override
    public void touch(long req) {
        pending.touch(req, now());
    }

    @Override
    public void cancel(long req) {
        pending.cancel(req);
    }

    @Override
    public void fail(long req, String why) {
        pending.fail(req, why);
    }

    @Override
    public void storeLocal(BlockId id, byte[] data, int crc, Consumer<BlockStored> done) {
        long req = newReq();
        storeWaiters.put(req, done);
        trigger(new StoreBlock(req, id, data, crc), store);
    }

    @Override
    public void readLocal(BlockId id, Consumer<BlockRead> done) {
        long req = newReq();
        readWaiters.put(req, done);
        trigger(new ReadBlock(req, id), store);
    }

    @Override
    public void place(PlacementRequest request, Consumer<List<String>> placed, Consumer<String> refused) {
        placements.place(request, placed, refused);
    }

    @Override
    public PolicyCatalog policies() {
        return policies;
    }

    static final class Tick extends Timeout {
        Tick(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    public static final class FileServiceInit extends Init<FileService> {
        final NetAddress self;
        final String region;
        final ClusterConfig cluster;
        final NodeSettings settings;
        final ManifestStore manifests;
        final long seed;
        final ReplicationQueueStore replicationQueue;
        /** Names and rules of the placement policies (the placement component has the policies). */
        PolicyCatalog policies = PolicySet.defaults().catalog();

        public FileServiceInit(NetAddress self, String region, ClusterConfig cluster, NodeSettings settings,
                ManifestStore manifests, long seed) {
            this(self, region, cluster, settings, manifests, seed, ReplicationQueueStore.inMemory());
        }

        public FileServiceInit(NetAddress self, String region, ClusterConfig cluster, NodeSettings settings,
                ManifestStore manifests, long seed, ReplicationQueueStore replicationQueue) {
            this.replicationQueue = replicationQueue;
            this.self = self;
            this.region = region;
            this.cluster = cluster;
            this.settings = settings;
            this.manifests = manifests;
            this.seed = seed;
        }

        /** This init with the names and rules of the node's placement policies. */
        public FileServiceInit withPolicies(PolicyCatalog catalog) {
            this.policies = catalog;
            return this;
        }
    }
}
