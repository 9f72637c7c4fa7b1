package geoblocks.blockstore.component;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.OwnerHandover;
import geoblocks.blockstore.wire.PeerOp.LayoutSync;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * The file service's side of the layout (glue): what it learns on the layout port (the layout, the versions
 * the regions reported) and what it decides with it: whether this node may decide the conditional writes of
 * a name now ({@link OwnerHandover}), and the layout version it tells a peer as an anti-entropy exchange
 * starts. The layout itself lives in the membership component; this keeps only what arrived.
 */
final class LayoutFollower {
    private final NodeContext node;
    private final OwnerHandover handover;
    /** Whether an anti-entropy exchange with every member, started at or after the given time, has completed. */
    private final LongPredicate syncedSince;

    LayoutFollower(NodeContext node, LongPredicate syncedSince) {
        this.node = node;
        this.handover = new OwnerHandover(node.region());
        this.syncedSince = syncedSince;
        handover.report(node.region(), node.layout().version());
    }

    /** The regions reported these layout versions (this node's own included). */
    void reports(Map<String, Long> reported) {
        reported.forEach(handover::report);
        handover.coveredSince(node.layout(), node.now());
    }

    /** The highest layout version each region reported, this node's own (its current layout) included. */
    Map<String, Long> reportedWithSelf() {
        Map<String, Long> m = new TreeMap<>(handover.reported());
        m.put(node.region(), node.layout().version());
        return m;
    }

    /** Null when this node may decide the conditional writes of {@code name} now, else why not. */
    String refusal(String name) {
        Layout l = node.layout();
        if (!l.moved(name)) {
            return handover.refusal(l, name, true);
        }
        OptionalLong since = handover.coveredSince(l, node.now());
        return handover.refusal(l, name, since.isPresent() && syncedSince.test(since.getAsLong()));
    }

    /** An anti-entropy exchange with {@code peer} starts: tell it this node's layout version. */
    void announce(String peer) {
        Layout l = node.layout();
        node.send(node.addressOf(peer), new LayoutSync(0, l.version(), l.digest(), new byte[0]));
    }
}
