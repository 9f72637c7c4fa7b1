package geoblocks.blockstore.component;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.RemovalGrace;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.blockstore.wire.PeerOp;
import geoblocks.net.AccessKey;
import geoblocks.net.NetAddress;

/**
 * Who may send each request that arrives at a node, decided at its family's door ({@link OpFamily}), in one
 * place each:
 * <ul>
 * <li>client: anyone the network let in by the cluster secret, except that a name reserved to the node's gateway
 *     is read or written only by an admin client ({@link AdminGate#needsAdmin}); a client by access key, what
 *     its key's grants allow ({@link KeyGate}), and nothing at any other door, whatever address it claims;
 * <li>admin: only the admin clients {@link AdminGate} names ({@code cluster show} from anyone);
 * <li>peer: only a member of the current layout, at the address the layout names for it (the network checks,
 *     when the cluster proves node keys, that a connection claiming a member's address holds its key); from a
 *     region removed less than {@link #REMOVED_READ_GRACE_NANOS} ago, block reads only (its clients' last gets);
 * <li>bench: the request and the test's stream from anyone, a test's opening and end only from a member.
 * </ul>
 * A reply passes every door: the request waiting for it knows whom it asked ({@link Pending}). A refused
 * request gets the {@link Failed} it has always got: FORBIDDEN at the client and admin doors, INVALID at the
 * peer door. Pure: time is passed in.
 */
final class Doors {
    /** How long after a region's removal this node still serves the block reads its node asks for. */
    static final long REMOVED_READ_GRACE_NANOS = 60_000_000_000L;

    private final AdminGate admin;
    private final KeyGate keys;
    private final String region;
    private final NetAddress self;
    private final RemovalGrace removalGrace = new RemovalGrace(REMOVED_READ_GRACE_NANOS);
    private LayoutAddresses book;

    /** Doors for node {@code region} at {@code self}, whose members are {@code l}'s, noted at {@code now}. */
    Doors(AdminGate admin, String region, NetAddress self, Layout l, long now) {
        this.admin = admin;
        this.keys = new KeyGate(admin.gateway());
        this.region = region;
        this.self = self;
        layout(l, now);
    }

    /** The members from now on are {@code l}'s, noted at {@code now}. */
    void layout(Layout l, long now) {
        book = LayoutAddresses.of(l, region, self);
        removalGrace.layout(l, now);
    }

    /** Null when {@code from} may send {@code op} at {@code now}, else the answer it gets instead. */
    Failed refusal(NetAddress from, FileOp op, long now) {
        return refusal(from, null, op, now);
    }

    /**
     * Null when {@code from}, on a connection authenticated by access key {@code key} (null: by the cluster secret,
     * a node's key, or in this process), may send {@code op} at {@code now}, else the answer it gets instead.
     */
    Failed refusal(NetAddress from, AccessKey key, FileOp op, long now) {
        if (key != null) {
            if (keys.admits(key, op)) {
                return null;
            }
            OpFamily family = OpFamily.of(op);
            return family == OpFamily.CLIENT || family == OpFamily.ADMIN ? forbidden(op) : notMember(from, op);
        }
        if (op.kind() == FileOp.Kind.REPLY) {
            return null;
        }
        return switch (OpFamily.of(op)) {
            case CLIENT, ADMIN -> admin.admits(from, op) ? null : forbidden(op);
            case PEER -> servesPeer(from, op, now) ? null : notMember(from, op);
            case BENCH -> op.kind() != FileOp.Kind.PEER_REQUEST || servesPeer(from, op, now) ? null : notMember(from, op);
        };
    }

    /** Whether {@code op} is refused because its sender is no admin client (not because it is no member). */
    static boolean forbidden(Failed refusal) {
        return refusal.code() == FailureCode.FORBIDDEN;
    }

    /**
     * Whether this node serves peer request {@code op} from {@code peer}: a member's, or a block read from a
     * region removed less than {@link #REMOVED_READ_GRACE_NANOS} ago.
     */
    private boolean servesPeer(NetAddress peer, FileOp op, long now) {
        if (book.regionOf(peer).isPresent()) {
            return true;
        }
        boolean read = op instanceof PeerOp.FetchBlock || op instanceof PeerOp.FetchPaced
                || op instanceof PeerOp.FetchMore || op instanceof PeerOp.FetchCancel;
        return read && book.formerRegionOf(peer).map(r -> removalGrace.serves(r, now)).orElse(false);
    }

    private static Failed forbidden(FileOp op) {
        return new Failed(op.req(), FailureCode.FORBIDDEN, op.getClass().getSimpleName() + " is an admin"
                + " operation (or touches a name reserved to the node's gateway): a client may not send it to a node;"
                + " use the node's admin API with an admin token (node.jar client cluster, move, token do), or, for a"
                + " client by access key, a name its key's file grants allow");
    }

    private static Failed notMember(NetAddress peer, FileOp op) {
        return new Failed(op.req(), FailureCode.INVALID, "node-to-node request from " + peer + ", not a cluster member");
    }
}
