package geoblocks.node.s3.bucket;

import geoblocks.node.s3.versioning.ObjectVersions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides what a bucket's lifecycle rules ({@link LifecycleConfig}) do to one key now: from the
 * versions S3 shows of it (newest first, {@link ObjectVersions#visible}), the current version's tags,
 * the wall time and the length of a lifecycle day ({@code geoblocks.s3.lifecycle.day}, 24 h; tests
 * shorten it). Only enabled rules whose filter takes the key count:
 * <ul>
 *   <li><b>Expiration</b> {@code Days}: the current version (not a delete marker) expires {@code Days}
 *       days after it was written ({@link Kind#EXPIRE_CURRENT}; S3 rounds up to the next midnight UTC,
 *       this does not); {@code Date}: every current version expires from that date on;</li>
 *   <li><b>NoncurrentVersionExpiration</b>: a noncurrent version (delete markers included) is purged
 *       {@code NoncurrentDays} after it became noncurrent (when its successor was written), except the
 *       {@code NewerNoncurrentVersions} newest noncurrent ones ({@link Kind#PURGE_NONCURRENT});</li>
 *   <li>an <b>expired object delete marker</b> (a current delete marker with no other version left,
 *       counting those purged in the same decision) is purged when a rule has
 *       {@code ExpiredObjectDeleteMarker}, or {@code Days} and the marker is that old
 *       ({@link Kind#PURGE_DELETE_MARKER});</li>
 *   <li><b>AbortIncompleteMultipartUpload</b>: {@link #abort}.</li>
 * </ul>
 * Tag and size filters are checked against the current version (its tags; each version's own size).
 * Pure: unit-tested with an explicit clock in LifecycleRulesTest.
 */
final class LifecycleRules {
    private LifecycleRules() {}

    enum Kind {
        /** Expire the current version: a delete (a delete marker in a versioned bucket). */
        EXPIRE_CURRENT,
        /** Purge a noncurrent version for good. */
        PURGE_NONCURRENT,
        /** Purge the delete marker left alone. */
        PURGE_DELETE_MARKER
    }

    record Action(Kind kind, ObjectVersions.V version, String ruleId) {}

    /**
     * What the rules do to {@code key} at {@code nowMillis}: at most one action per version, the
     * current version's first. {@code newestFirst}: the versions shown of it; {@code tags}: the current
     * version's tags (empty when it has none or the rules need none).
     */
    static List<Action> decide(LifecycleConfig config, String key, List<ObjectVersions.V> newestFirst,
            Map<String, String> tags, long nowMillis, long dayMillis) {
        if (newestFirst.isEmpty()) {
            return List.of();
        }
        Map<String, Action> byVersion = new LinkedHashMap<>();
        ObjectVersions.V head = newestFirst.get(0);
        for (LifecycleConfig.Rule r : config.rules()) {
            if (!r.enabled() || !r.matches(key, head.size(), tags)) {
                continue;
            }
            if (head.latest() && !head.deleteMarker()) {
                boolean byDays = r.expirationDays() != null
                        && nowMillis >= head.modifiedMillis() + r.expirationDays() * dayMillis;
                boolean byDate = r.expirationDateMillis() != null && nowMillis >= r.expirationDateMillis();
                if (byDays || byDate) {
                    byVersion.putIfAbsent(head.versionId(), new Action(Kind.EXPIRE_CURRENT, head, r.id()));
                }
            }
            if (r.noncurrentDays() != null) {
                int noncurrentSeen = 0;
                for (int i = 1; i < newestFirst.size(); i++) {
                    ObjectVersions.V v = newestFirst.get(i);
                    if (!r.matches(key, v.size(), tags)) {
                        continue;
                    }
                    noncurrentSeen++;
                    if (r.newerNoncurrentVersions() != null && noncurrentSeen <= r.newerNoncurrentVersions()) {
                        continue; // among the newest noncurrent versions kept
                    }
                    long since = newestFirst.get(i - 1).modifiedMillis(); // noncurrent since its successor was written
                    if (nowMillis >= since + r.noncurrentDays() * dayMillis) {
                        byVersion.putIfAbsent(v.versionId(), new Action(Kind.PURGE_NONCURRENT, v, r.id()));
                    }
                }
            }
        }
        if (head.latest() && head.deleteMarker()) {
            boolean alone = true;
            for (int i = 1; i < newestFirst.size(); i++) {
                if (!byVersion.containsKey(newestFirst.get(i).versionId())) {
                    alone = false;
                }
            }
            if (alone) {
                for (LifecycleConfig.Rule r : config.rules()) {
                    if (!r.enabled() || !r.matches(key, 0, tags)) {
                        continue;
                    }
                    boolean byDays = r.expirationDays() != null
                            && nowMillis >= head.modifiedMillis() + r.expirationDays() * dayMillis;
                    if (r.expiredObjectDeleteMarker() || byDays) {
                        byVersion.putIfAbsent(head.versionId(), new Action(Kind.PURGE_DELETE_MARKER, head, r.id()));
                        break;
                    }
                }
            }
        }
        List<Action> out = new ArrayList<>(byVersion.values());
        out.sort((a, b) -> Integer.compare(newestFirst.indexOf(a.version()), newestFirst.indexOf(b.version())));
        return out;
    }

    /** Whether an enabled rule aborts a multipart upload of {@code key} begun at {@code startedMillis}, now. */
    static String abort(LifecycleConfig config, String key, long startedMillis, long nowMillis, long dayMillis) {
        for (LifecycleConfig.Rule r : config.rules()) {
            if (r.enabled() && r.abortDays() != null && key.startsWith(r.prefix())
                    && nowMillis >= startedMillis + r.abortDays() * dayMillis) {
                return r.id();
            }
        }
        return null;
    }
}
