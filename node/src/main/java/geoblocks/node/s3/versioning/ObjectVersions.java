package geoblocks.node.s3.versioning;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.object.S3Objects;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the node's versions of an object look through S3 versioning (docs/s3.md, "Versioning"). The
 * node keeps every version of a name (clock@region ids, tombstones, a retention); S3 shows:
 * <ul>
 *   <li>a version written while the bucket's versioning was Enabled: marked {@link Manifest#META_KEEP}
 *       (so the retention keeps it), listed with the node's version id;</li>
 *   <li>any other version: S3's {@code null} version; only the newest of them is shown (S3 would
 *       have overwritten the older ones; the node drops them after its retention);</li>
 *   <li>a tombstone: a delete marker, listed with the node's version id;</li>
 *   <li>in a bucket whose versioning was never set ({@link Status#OFF}) only the live head, as {@code null}.</li>
 * </ul>
 * A DeleteObject with a {@code versionId} purges that version in the node ({@link #purge}): it is no
 * longer kept, and the version below it becomes current. Tombstones marked {@link #META_REMOVES}
 * (stored by earlier releases for a delete of the current version) still hide themselves and the
 * version they name.
 * Pure: unit-tested in ObjectVersionsTest.
 */
public final class ObjectVersions {
    /** S3's id of the version a bucket without versioning (or with it suspended) writes. */
    public static final String NULL = "null";
    /** Metadata of a tombstone that removed the version named by its value (a DeleteObject with versionId). */
    public static final String META_REMOVES = "removes";

    private ObjectVersions() {}

    /** A bucket's versioning state; OFF until PutBucketVersioning first sets it (it never returns to OFF). */
    public enum Status {
        OFF(""), ENABLED("Enabled"), SUSPENDED("Suspended");

        private final String xml;

        Status(String xml) {
            this.xml = xml;
        }

        /** The value in a VersioningConfiguration's Status ("" for OFF: the element is left out). */
        public String xml() {
            return xml;
        }

        /** The state a PutBucketVersioning Status names; anything but Enabled and Suspended is refused. */
        public static Status parse(String s) throws S3Exception {
            if ("Enabled".equals(s)) {
                return ENABLED;
            }
            if ("Suspended".equals(s)) {
                return SUSPENDED;
            }
            throw new S3Exception(S3Error.MALFORMED_XML, "the versioning Status must be Enabled or Suspended, was '" + s + "'");
        }

        /** The state a bucket record holds ("" or absent: OFF). */
        public static Status ofRecord(String s) throws IllegalArgumentException {
            for (Status st : values()) {
                if (st.xml.equals(s == null ? "" : s)) {
                    return st;
                }
            }
            throw new IllegalArgumentException("unknown versioning state '" + s + "'");
        }
    }

    /** One version as S3 shows it. */
    public record V(String key, String versionId, String nodeVersion, boolean latest, boolean deleteMarker, long size,
            long modifiedMillis, String etag) {}

    /** The S3 version id of a node version: its own id when it is a tombstone or kept, else {@code null}. */
    public static String id(boolean deleted, Map<String, String> meta, String nodeVersion) {
        return deleted || meta.containsKey(Manifest.META_KEEP) ? nodeVersion : NULL;
    }

    /** Checks a {@code versionId} parameter: {@code null} or a node version id ({@code 16 hex digits@region}). */
    public static String parseId(String versionId) throws S3Exception {
        if (NULL.equals(versionId)) {
            return NULL;
        }
        try {
            return Version.parse(versionId).id();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "invalid version id '" + versionId + "'");
        }
    }

    /** The metadata a new version of a bucket in state {@code s} carries besides its own. */
    public static Map<String, String> marks(Status s) {
        return s == Status.ENABLED ? Map.of(Manifest.META_KEEP, "1") : Map.of();
    }

    /**
     * The versions S3 shows of {@code key}, newest first, from the node's ({@code newestFirst}, as
     * ClientPort.Versions answers), in a bucket in state {@code s}.
     */
    public static List<V> visible(String key, List<VersionEntry> newestFirst, Status s) {
        List<V> out = new ArrayList<>();
        Set<String> removed = new HashSet<>();
        for (VersionEntry e : newestFirst) {
            if (e.deleted() && e.meta().containsKey(META_REMOVES)) {
                removed.add(e.id());
                removed.add(e.meta().get(META_REMOVES));
            }
        }
        boolean nullShown = false;
        for (int i = 0; i < newestFirst.size(); i++) {
            VersionEntry e = newestFirst.get(i);
            boolean head = i == 0;
            if (removed.contains(e.id())) {
                continue;
            }
            if (s == Status.OFF) {
                if (head && !e.deleted()) {
                    out.add(of(key, e, NULL, true));
                }
                break;
            }
            String id = id(e.deleted(), e.meta(), e.id());
            if (id.equals(NULL)) {
                if (nullShown) {
                    continue;
                }
                nullShown = true;
            }
            out.add(of(key, e, id, head));
        }
        return out;
    }

    private static V of(String key, VersionEntry e, String id, boolean latest) {
        return new V(key, id, e.id(), latest, e.deleted(), S3Encryption.plainSize(e.meta(), e.size()), e.createdMillis(), e.meta().get(S3Objects.META_ETAG));
    }

    /**
     * What a DeleteObject with {@code versionId} purges: the shown version it names and the node
     * versions behind it, or null when no shown version has that id. A node id names one version;
     * {@code null} names the bucket's null version, and every unmarked live version is purged with
     * it (S3 keeps one null version and overwrites it; the node keeps the replaced ones for its
     * retention, and they would show again).
     */
    public record Purge(V shown, List<String> nodeVersions) {}

    public static Purge purge(String key, List<VersionEntry> newestFirst, Status s, String versionId) {
        V v = find(key, newestFirst, s, versionId);
        if (v == null) {
            return null;
        }
        List<String> nodes = new ArrayList<>();
        if (NULL.equals(v.versionId())) {
            for (VersionEntry e : newestFirst) {
                if (!e.deleted() && NULL.equals(id(false, e.meta(), e.id()))) {
                    nodes.add(e.id());
                }
            }
        } else {
            nodes.add(v.nodeVersion());
        }
        return new Purge(v, nodes);
    }

    /** The shown version {@code versionId} names ({@code null} or a node id), or null when none is shown. */
    public static V find(String key, List<VersionEntry> newestFirst, Status s, String versionId) {
        for (V v : visible(key, newestFirst, s)) {
            if (v.versionId().equals(versionId)) {
                return v;
            }
        }
        return null;
    }
}
