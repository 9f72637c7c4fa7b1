package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOps;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.net.AccessKey;
import java.util.Objects;

/**
 * What a client authenticated by an access key may send (pure; the client door of {@link Doors} asks it): client
 * operations only, never a peer, admin or bench one (whatever address it claims; {@code cluster show}, which
 * changes nothing and answers the layout as {@code status} answers the node's state, is a client's), and of those:
 * <ul>
 * <li>writes (put, delete) of a name one of its grants lets it write, reads (get, stat, versions) of a name one
 *     lets it read;
 * <li>a listing only under a prefix one of its grants lets it read whole, so a listing returns only what the key
 *     may read;
 * <li>never a name the node's gateway keeps ({@link GatewayNames}), whatever its grants say: S3's objects and
 *     records, access keys and admin tokens are not reachable by file name;
 * <li>the rest of a put or get it was let start (its data, acknowledgements) and the node's status and policies.
 * </ul>
 */
public final class KeyGate {
    private final GatewayNames gateway;

    public KeyGate(GatewayNames gateway) {
        this.gateway = Objects.requireNonNull(gateway, "gateway");
    }

    /** Whether {@code key} may send {@code op}. */
    public boolean admits(AccessKey key, FileOp op) {
        if (op instanceof ClientOp.ClusterReq c) {
            return !FileOps.isAdmin(c);
        }
        if (OpFamily.of(op) != OpFamily.CLIENT) {
            return false;
        }
        if (op instanceof ClientOp.PutBegin p) {
            return writes(key, p.name());
        } else if (op instanceof ClientOp.DeleteReq d) {
            return writes(key, d.name());
        } else if (op instanceof ClientOp.GetBegin g) {
            return reads(key, g.name());
        } else if (op instanceof ClientOp.GetRead g) {
            return reads(key, g.name());
        } else if (op instanceof ClientOp.GetRange g) {
            return reads(key, g.name());
        } else if (op instanceof ClientOp.StatReq s) {
            return reads(key, s.name());
        } else if (op instanceof ClientOp.VersionsReq v) {
            return reads(key, v.name());
        } else if (op instanceof ClientOp.ListReq l) {
            return key.readsAllUnder(l.prefix()) && !gateway.mayHoldUnder(l.prefix());
        }
        return true; // PutData, GetAck (of a put or get admitted by its begin), status, policies, unknown tags
    }

    private boolean reads(AccessKey key, String name) {
        return key.reads(name) && !gateway.holds(name);
    }

    private boolean writes(AccessKey key, String name) {
        return key.writes(name) && !gateway.holds(name);
    }
}
