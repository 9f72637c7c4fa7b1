package geoblocks.node.s3.migration;

import geoblocks.blockstore.core.Manifest;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The DataBridge migration a version carries: one the S3 gateway stored away from its bucket's home
 * has the metadata {@code migrate-to} (the regions it moves to, home first). {@code storedAt} is the
 * region that stored it (the manifest's {@code uploadedAt}; only that node drives the move), and
 * {@code done} holds once every block's replicas are exactly those regions (what {@code client stat
 * --json} prints as {@code "migration": {stored_at, to, done}}).
 */
public record PendingMigration(String storedAt, List<String> to, boolean done) {
    /** The metadata key the gateway sets on objects it stores away from their bucket's home. */
    public static final String META = "migrate-to";

    public PendingMigration {
        to = List.copyOf(to);
    }

    /** The migration {@code m} carries, or empty for a version without {@code migrate-to} (or a delete). */
    public static Optional<PendingMigration> of(Manifest m) {
        String migrateTo = m.meta().get(META);
        if (migrateTo == null || m.deleted()) {
            return Optional.empty();
        }
        List<String> to = targets(migrateTo);
        Set<String> want = new HashSet<>(to);
        boolean done = m.blocks().stream().allMatch(b -> new HashSet<>(b.replicas()).equals(want));
        return Optional.of(new PendingMigration(m.uploadedAt(), to, done));
    }

    /** The regions a {@code migrate-to} value names ("dublin,mumbai"). */
    public static List<String> targets(String migrateTo) {
        return List.of(migrateTo.split(","));
    }
}
