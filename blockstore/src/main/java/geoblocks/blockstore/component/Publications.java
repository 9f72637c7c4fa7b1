package geoblocks.blockstore.component;

import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.PublicationBatches;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Sends manifest publications to peers through {@link PublicationBatches}: one batch in flight per
 * peer; what is published meanwhile leaves as one {@link ManifestCodec#encodeBatch batch} when the
 * answer comes, which the peer stores in one durable write and answers once. A batch of one is a
 * plain publication. Glue: the batching rule is the pure class.
 */
final class Publications {
    /** Batches in flight per peer. */
    static final int WINDOW = 1;
    /** At most this many publications, and about this many bytes, per batch. */
    static final int MAX_ITEMS = 64;
    static final int MAX_BYTES = 256 << 10;

    private record Item(byte[] bytes, Consumer<Failure> done) {}

    private final Node node;
    private final PublicationBatches<Item> batches = new PublicationBatches<>(WINDOW, MAX_ITEMS, MAX_BYTES);

    Publications(Node node) {
        this.node = node;
    }

    /** Publishes {@code encoded} (a manifest or history) to {@code peer}; {@code done} gets null once stored there, else why not. */
    void publish(String peer, byte[] encoded, Consumer<Failure> done) {
        send(batches.offer(peer, new Item(encoded, done), encoded.length));
    }

    private void send(PublicationBatches.Batch<Item> batch) {
        if (batch == null) {
            return;
        }
        String peer = batch.peer();
        List<Item> items = batch.items();
        byte[] bytes;
        if (items.size() == 1) {
            bytes = items.get(0).bytes();
        } else {
            List<byte[]> all = new ArrayList<>(items.size());
            for (Item i : items) {
                all.add(i.bytes());
            }
            bytes = ManifestCodec.encodeBatch(all);
        }
        NetAddress addr = node.addressOf(peer);
        long req = node.expect(addr, Pending.Waiter.until(Done.class, why -> {
            PublicationBatches.Batch<Item> next = batches.answered(peer);
            for (Item i : items) {
                i.done().accept(why);
            }
            send(next);
        }));
        Assembly.split(bytes, node.settings().chunkBytes(), (off, part) ->
                node.send(addr, new ManifestPart(req, true, off, bytes.length, part)));
    }

    /** Batches sent since start. */
    long batches() {
        return batches.batches();
    }

    /** Publications sent since start. */
    long items() {
        return batches.items();
    }
}
