package geoblocks.blockstore.core.layout;

import java.util.Locale;

/**
 * Where a region stands in the {@link Layout}: {@code ACTIVE} (takes new replicas, may own names),
 * {@code DRAINING} (keeps serving what it holds, gets no new replicas and owns no names) or
 * {@code REMOVED} (no longer a member; kept in the layout so every node forgets it the same way).
 */
public enum RegionState {
    ACTIVE, DRAINING, REMOVED;

    /** The lower-case name the CLI and JSON show. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
