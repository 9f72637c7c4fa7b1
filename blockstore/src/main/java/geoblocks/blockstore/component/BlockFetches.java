package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.PeerOp.FetchBlock;
import geoblocks.net.NetAddress;

/**
 * Serves other nodes' plain block fetches ({@link FetchBlock}): reads the block and sends it in chunks of
 * {@code chunk-bytes} ({@link BlockData}), or the store's failure with its code (missing, corrupt, I/O error).
 * Holds no state between fetches. Runs in the peer service ({@link PeerService}), on a {@link PeerNode}.
 */
final class BlockFetches {
    private final PeerNode node;

    BlockFetches(PeerNode node) {
        this.node = node;
    }

    void onFetch(NetAddress peer, FetchBlock f) {
        BlockId id;
        try {
            id = BlockId.of(f.blockId());
        } catch (IllegalArgumentException e) {
            node.send(peer, new Failed(f.req(), FailureCode.INVALID, e.getMessage()));
            return;
        }
        node.readLocal(id, read -> {
            if (read.block() == null) {
                node.send(peer, read.failure().prefixed(node.region() + ": ").reply(f.req()));
                return;
            }
            byte[] data = read.block().data();
            Assembly.split(data, node.settings().chunkBytes(), (off, part) ->
                    node.send(peer, new BlockData(f.req(), off, data.length, read.block().crc(), part)));
        });
    }
}
