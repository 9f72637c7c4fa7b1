package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.BenchOp.*;
import geoblocks.blockstore.wire.ClientOp.*;
import geoblocks.blockstore.wire.FileOp.*;
import geoblocks.blockstore.wire.PeerOp.*;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.OpFamily;
import java.util.List;

/**
 * Who handles each request that arrives at a node, door by door ({@link OpFamily}): one table per family,
 * each taking only its family's ops, and the peer service's table of the peer requests it took over
 * ({@link #PEER_SERVICE}: the ingress sends those to the peer service, the file service never sees them).
 * Who may send each was decided at its door ({@link Doors}); {@code complete()} refuses to start a node
 * that lacks a handler.
 */
final class RequestRoutes {
    /**
     * The peer requests the peer service ({@link PeerService}) handles: {@link FileIngress} sends them on
     * {@code PeerServicePort}; every other peer op goes to the file service on {@code PeerOpsPort}.
     */
    static final List<Class<? extends FileOp>> PEER_SERVICE = List.of(FetchBlock.class, FetchPaced.class,
            FetchMore.class, FetchCancel.class);

    private RequestRoutes() {}

    /** True when {@code op} is handled by the peer service, not by the file service. */
    static boolean toPeerService(FileOp op) {
        return PEER_SERVICE.contains(op.getClass());
    }

    /** The answer to an op this node does not know (a newer peer's): UNSUPPORTED, naming the tag and what this node speaks. */
    static Failed unsupported(Unknown u) {
        return new Failed(u.req(), geoblocks.blockstore.wire.FailureCode.UNSUPPORTED, "op tag " + u.tag()
                + " is not known to this node (file protocol " + geoblocks.blockstore.wire.FileCodec.RANGE
                + "): it runs an older geoblocks than the sender");
    }

    /** What a client asks of its node, and an op this node does not know (answered UNSUPPORTED). */
    static OpHandlers client(Node node, NodeParts p) {
        return new OpHandlers(OpFamily.CLIENT)
                .on(PutBegin.class, p.uploads()::onBegin)
                .on(PutData.class, p.uploads()::onData)
                .on(GetBegin.class, p.downloads()::onBegin)
                .on(GetRead.class, p.downloads()::onRead)
                .on(GetRange.class, p.downloads()::onRange)
                .on(GetAck.class, p.downloads()::onAck)
                .on(ListReq.class, p.requests()::onList)
                .on(StatReq.class, p.requests()::onStat)
                .on(DeleteReq.class, p.requests()::onDelete)
                .on(StatusReq.class, p.requests()::onStatus)
                .on(PoliciesReq.class, (from, r) -> node.send(from, new PoliciesReply(r.req(), node.region(),
                        node.policies().policies().stream()
                                .map(d -> new PolicyInfo(d.name(), d.kind(), d.copies(), d.rules())).toList())))
                .on(VersionsReq.class, p.requests()::onVersions)
                .on(Unknown.class, (from, u) -> node.send(from, unsupported(u)))
                .complete();
    }

    /** What the other nodes ask of this one: replicas, reads of them, claims, anti-entropy, publications. */
    static OpHandlers peer(NodeParts p) {
        return new OpHandlers(OpFamily.PEER)
                .on(ReplicaData.class, p.replicas()::onReplicaData)
                .on(LookupManifest.class, p.replicas()::onLookup)
                .on(DeleteFile.class, p.replicas()::onDelete)
                .on(BackgroundFetch.class, p.background()::onFetch)
                .on(BackgroundOffer.class, p.background()::onOffer)
                .on(MoveCopy.class, p.migrations()::onMoveCopy)
                .on(DropBlocks.class, p.migrations()::onDrop)
                .on(HoldBlocks.class, (from, h) -> p.migrations().onHold(h))
                .on(CreateClaim.class, p.replicas()::onClaim)
                .on(SyncDigest.class, p.antiEntropy()::onDigest)
                .on(SyncNamesReq.class, p.antiEntropy()::onNamesReq)
                // a publication (any other manifest part is a reply)
                .on(ManifestPart.class, p.replicas()::onPublish)
                // the membership component takes it at the same door (MembershipComponent)
                .elsewhere(LayoutSync.class)
                // the peer service's: the ingress sends them there (peerService below)
                .elsewhere(PEER_SERVICE)
                .complete();
    }

    /** What the peer service handles for other nodes: their block fetches, plain and paced ({@link #PEER_SERVICE}). */
    static OpHandlers peerService(BlockFetches fetches, PacedFetches paced) {
        OpHandlers routes = new OpHandlers(OpFamily.PEER)
                .on(FetchBlock.class, fetches::onFetch)
                .on(FetchPaced.class, paced::onFetch)
                .on(FetchMore.class, paced::onMore)
                .on(FetchCancel.class, paced::onCancel);
        for (Class<? extends FileOp> c : PEER_SERVICE) {
            if (!routes.handles(c)) {
                throw new IllegalStateException("the peer service has no handler for " + c.getSimpleName());
            }
        }
        return routes;
    }

    /** What an admin asks: moves and purges (cluster changes go to the membership component). */
    static OpHandlers admin(NodeParts p) {
        return new OpHandlers(OpFamily.ADMIN)
                .on(geoblocks.blockstore.wire.ClientOp.PurgeReq.class, p.requests()::onPurge)
                .on(MoveReq.class, p.migrations()::onMove)
                .elsewhere(ClusterReq.class)
                .complete();
    }

    /** The bench net measurement. */
    static OpHandlers bench(NodeParts p) {
        return new OpHandlers(OpFamily.BENCH)
                .on(NetBenchReq.class, p.netBench()::onRequest)
                .on(NetBenchOpen.class, p.netBench()::onOpen)
                .on(NetBenchEnd.class, p.netBench()::onEnd)
                .on(NetBenchData.class, p.netBench()::onData)
                .on(NetBenchAck.class, p.netBench()::onAck)
                .complete();
    }
}
