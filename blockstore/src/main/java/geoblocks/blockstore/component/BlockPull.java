package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Brings one block to this node from the regions holding it, as background traffic: with
 * background-transport = ledbat a holder pushes it over LEDBAT ({@link BackgroundTransfers#pull});
 * with tcp it is fetched like a download block (same checksum checks). Either way it is stored
 * with the store's atomic replace, so a bad local copy is only replaced once a good one is durable.
 * Used by scrub repair and by moves.
 */
final class BlockPull {
    private final Node node;
    /** Null: fetch over TCP. */
    private final BackgroundTransfers ledbat;

    BlockPull(Node node, BackgroundTransfers ledbat) {
        this.node = node;
        this.ledbat = ledbat;
    }

    /** Pulls block {@code id} from {@code holders} (nearest first); {@code done} gets null once it is durable here, else why not. */
    void pull(BlockId id, int length, int crc, List<String> holders, Consumer<Failure> done) {
        List<String> order = new ArrayList<>(node.rtt().readOrder(holders));
        order.remove(node.region());
        if (order.isEmpty()) {
            done.accept(new Failure(FailureCode.BLOCK_MISSING, "block " + id + " has no copy elsewhere"));
            return;
        }
        if (ledbat != null) {
            List<NetAddress> addresses = new ArrayList<>();
            for (String r : order) {
                addresses.add(node.addressOf(r));
            }
            ledbat.pull(addresses, id, length, crc, done);
            return;
        }
        Downloads.fetchFrom(node, id, new Manifest.BlockRef(length, crc, order), order,
                data -> node.storeLocal(id, data, crc, stored -> done.accept(
                        stored.ok() ? null : stored.failure().prefixed("could not store it: "))),
                why -> done.accept(why.prefixed("no copy answered: ")));
    }

    /** " over LEDBAT" when pulls use it, else "": for messages. */
    String via() {
        return ledbat != null ? " over LEDBAT" : "";
    }
}
