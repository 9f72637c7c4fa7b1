package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.PeerOp.HoldBlocks;
import java.util.List;
import java.util.Map;

/**
 * Keep-alives for blocks not yet referenced by a manifest their holder has: a move's copies at its targets
 * and an upload's at its replica regions. The holder touches the files named ({@link MoveTargets#onHold}), so
 * its block collector keeps their blocks another grace.
 */
final class Holds {
    private Holds() {}

    /** Sends each region its file ids, in lists of at most {@link FileCodec#MAX_LIST}. */
    static void send(Node node, Map<String, List<String>> byRegion) {
        byRegion.forEach((region, ids) -> {
            for (int i = 0; i < ids.size(); i += FileCodec.MAX_LIST) {
                node.send(node.addressOf(region), new HoldBlocks(0, List.copyOf(ids.subList(i, Math.min(ids.size(),
                        i + FileCodec.MAX_LIST)))));
            }
        });
    }
}
