package geoblocks.blockstore.core;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names whose newest write is not yet covered by a sync of the metadata engine (group commit,
 * {@link OutputGate}). The owner of the {@link ManifestStore} records each name before it writes it,
 * with the write's sequence number, and drops every name a finished sync covers; any other thread
 * may ask whether a name is unsynced. A reader that read a name's record and then finds it not
 * unsynced knows that what it read is durable: the name was recorded before the write and is
 * dropped only after a sync covering it ended. Thread-safe.
 */
public final class UnsyncedNames {
    private final ConcurrentHashMap<String, Long> newest = new ConcurrentHashMap<>();

    /** {@code names} are about to be written by write number {@code seq} (sequence numbers only grow). */
    public void writing(Collection<String> names, long seq) {
        for (String n : names) {
            newest.merge(n, seq, Math::max);
        }
    }

    /** A sync covering every write up to number {@code upTo} ended: those names are durable now. */
    public void synced(long upTo) {
        // removes an entry only if its value is still the one tested, so a newer write of a name stays
        newest.entrySet().removeIf(e -> e.getValue() <= upTo);
    }

    /** Whether the newest write of {@code name} may not be durable yet. */
    public boolean contains(String name) {
        return newest.containsKey(name);
    }

    /** Names waiting for a sync. */
    public int size() {
        return newest.size();
    }
}
