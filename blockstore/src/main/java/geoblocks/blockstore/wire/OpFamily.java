package geoblocks.blockstore.wire;

import geoblocks.blockstore.wire.BenchOp.*;
import geoblocks.blockstore.wire.ClientOp.*;
import geoblocks.blockstore.wire.FileOp.*;
import geoblocks.blockstore.wire.PeerOp.*;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The door each op of the file protocol enters a node by: every op record is in exactly one family
 * (this table; {@code OpFamilyTest} checks it against {@link FileOps#records()}), and each family has a
 * port of its own and one place where it is authorized ({@code component.Doors}):
 * <ul>
 * <li>{@link #CLIENT}: a client's work on names (puts, gets, lists, status) and its answers, and a request
 *     whose tag this node does not know ({@link Unknown}, answered UNSUPPORTED to anyone);
 * <li>{@link #PEER}: node to node (replication, reads of replicas, claims, anti-entropy, layout gossip), with
 *     the generic answers ({@link Done}, {@link Failed}) and manifest parts a node receives from the nodes it asks;
 * <li>{@link #ADMIN}: changes to the cluster and to where data lives ({@code cluster}, {@code move}, {@code purge});
 * <li>{@link #BENCH}: the {@code bench net} measurement (a client's request, the test between two nodes).
 * </ul>
 * A family says where an op enters; its {@link FileOp#kind()} says whether it is a request (authorized at
 * the door) or a reply (handed to the request waiting for it, which knows whom it asked).
 */
public enum OpFamily {
    CLIENT(List.of(PutBegin.class, PutData.class, GetBegin.class, GetRead.class, GetRange.class, GetAck.class,
            ListReq.class, StatReq.class, VersionsReq.class, DeleteReq.class, StatusReq.class, PoliciesReq.class,
            Waiting.class, PutProgress.class, GetData.class, StatPending.class, VersionList.class, Committed.class,
            ListPart.class, StatusReply.class, PoliciesReply.class, Unknown.class)),
    PEER(List.of(MoveCopy.class, DropBlocks.class, HoldBlocks.class, ReplicaData.class, ReplicaStored.class,
            FetchBlock.class, FetchPaced.class, FetchMore.class, FetchCancel.class, BlockData.class,
            LookupManifest.class, DeleteFile.class, CreateClaim.class, Claimed.class, SyncDigest.class,
            LayoutSync.class, SyncLeaves.class, SyncNamesReq.class, SyncNames.class, BackgroundFetch.class,
            BackgroundOffer.class, BackgroundStored.class, ManifestPart.class, Done.class, Failed.class)),
    ADMIN(List.of(ClusterReq.class, ClusterReply.class, MoveReq.class, PurgeReq.class)),
    BENCH(List.of(NetBenchReq.class, NetBenchOpen.class, NetBenchData.class, NetBenchAck.class, NetBenchEnd.class,
            NetBenchReport.class, NetBenchResult.class));

    private static final Map<Class<?>, OpFamily> BY_CLASS = index();

    private final List<Class<? extends FileOp>> ops;

    OpFamily(List<Class<? extends FileOp>> ops) {
        this.ops = ops;
    }

    /** The op records of this family, as the table lists them. */
    public List<Class<? extends FileOp>> ops() {
        return ops;
    }

    /** The family of {@code op}. */
    public static OpFamily of(FileOp op) {
        return of(op.getClass());
    }

    /** The family of op record {@code type}; IllegalArgumentException for a class the table does not list. */
    public static OpFamily of(Class<?> type) {
        OpFamily f = BY_CLASS.get(type);
        if (f == null) {
            throw new IllegalArgumentException(type.getName() + " is in no op family (wire.OpFamily)");
        }
        return f;
    }

    private static Map<Class<?>, OpFamily> index() {
        Map<Class<?>, OpFamily> m = new LinkedHashMap<>();
        for (OpFamily f : values()) {
            for (Class<?> c : f.ops) {
                OpFamily was = m.putIfAbsent(c, f);
                if (was != null) {
                    throw new IllegalStateException(c.getSimpleName() + " is in two op families: " + was + " and " + f);
                }
            }
        }
        return Map.copyOf(m);
    }
}
