package geoblocks.sim.compression;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.BlockStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the compression scenario's clients share: each slot's block stores (emptied after every
 * job, so a slot holds one file at a time), and how many clients are still running (the last to
 * finish ends the simulation). Static because every simulation runs in a fresh class loader on one
 * thread.
 */
final class CompressionBoard {
    private static final Map<Integer, List<BlockStorage>> STORES = new HashMap<>();
    private static int finished;

    private CompressionBoard() {}

    static void store(int slot, BlockStorage s) {
        STORES.computeIfAbsent(slot, k -> new ArrayList<>()).add(s);
    }

    /** Drops every block of slot {@code slot}'s nodes (its job is over). */
    static void empty(int slot) {
        try {
            for (BlockStorage s : STORES.getOrDefault(slot, List.of())) {
                for (BlockId id : s.list()) {
                    s.delete(id);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not empty the block stores of slot " + slot, e);
        }
    }

    /** One client is done; true when it was the last of {@code clients}. */
    static boolean done(int clients) {
        return ++finished == clients;
    }
}
