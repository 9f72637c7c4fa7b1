package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import geoblocks.blockstore.wire.PeerOp.ReplicaStored;
import geoblocks.net.NetAddress;
import java.util.function.Consumer;

/**
 * Copies one block to a peer and reports when the copy is durable there: {@code done} gets null,
 * or why not. Foreground copies (replicas of a put with --ack all) always travel as TCP replica
 * messages ({@link #foreground}); background copies (re-replication, the replication queue) go the
 * way {@code background-transport} says ({@link #background}): offered to the peer and pushed over
 * LEDBAT, or over TCP like a foreground copy.
 */
final class ReplicaCopy {
    private final Node node;
    /** Null: background copies travel over TCP too. */
    private final BackgroundTransfers ledbat;

    ReplicaCopy(Node node, BackgroundTransfers ledbat) {
        this.node = node;
        this.ledbat = ledbat;
    }

    /** A background copy, over the configured transport. */
    void background(NetAddress peer, BlockId id, byte[] data, int crc, Consumer<Failure> done) {
        if (ledbat != null) {
            ledbat.offerAndPush(peer, id, data, crc, done);
        } else {
            overTcp(node, peer, id, data, crc, true, done);
        }
    }

    /** " over LEDBAT" when background copies use it, else "": for messages. */
    String via() {
        return ledbat != null ? " over LEDBAT" : "";
    }

    /** A foreground copy: TCP replica messages; {@code done} gets null or the failure (the peer's code kept). */
    static void foreground(Node node, NetAddress peer, BlockId id, byte[] data, int crc, Consumer<Failure> done) {
        overTcp(node, peer, id, data, crc, false, done);
    }

    /**
     * Sends the block as TCP replica messages (ReplicaData chunks, marked with their traffic class
     * for both ends' counters) and waits for ReplicaStored.
     */
    private static void overTcp(Node node, NetAddress peer, BlockId id, byte[] data, int crc, boolean background,
            Consumer<Failure> done) {
        long req = node.expect(peer, Pending.Waiter.outcome(ReplicaStored.class, done));
        Assembly.split(data, node.settings().chunkBytes(), (off, part) ->
                node.send(peer, new ReplicaData(req, id.value(), off, data.length, crc, background, part)));
    }
}
