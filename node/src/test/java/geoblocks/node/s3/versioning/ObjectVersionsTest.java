package geoblocks.node.s3.versioning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.versioning.ObjectVersions.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** S3 version ids and which of the node's versions S3 shows, per bucket versioning state. */
class ObjectVersionsTest {
    private static VersionEntry put(long clock, boolean keep) {
        return new VersionEntry(clock, "seoul", 3, "seoul", clock, 0, false,
                keep ? Map.of("etag", "e" + clock, Manifest.META_KEEP, "1") : Map.of("etag", "e" + clock));
    }

    private static VersionEntry tomb(long clock) {
        return new VersionEntry(clock, "dublin", 0, "dublin", clock, 0, true);
    }

    private static List<String> ids(List<ObjectVersions.V> vs) {
        return vs.stream().map(v -> v.versionId() + (v.latest() ? "*" : "") + (v.deleteMarker() ? "D" : "")).toList();
    }

    @Test
    void ids_areTheNodesForKeptVersionsAndTombstones_nullOtherwise() {
        assertEquals("0000000000000005@seoul", ObjectVersions.id(false, Map.of(Manifest.META_KEEP, "1"), "0000000000000005@seoul"));
        assertEquals("null", ObjectVersions.id(false, Map.of("etag", "x"), "0000000000000005@seoul"));
        assertEquals("0000000000000006@dublin", ObjectVersions.id(true, Map.of(), "0000000000000006@dublin"));
        assertEquals(Map.of(Manifest.META_KEEP, "1"), ObjectVersions.marks(Status.ENABLED));
        assertEquals(Map.of(), ObjectVersions.marks(Status.SUSPENDED));
        assertEquals(Map.of(), ObjectVersions.marks(Status.OFF));
    }

    @Test
    void parseId_acceptsNullAndNodeIds_refusesAnythingElseAsInvalidArgument() throws S3Exception {
        assertEquals("null", ObjectVersions.parseId("null"));
        assertEquals("01a20489f0c20000@seoul", ObjectVersions.parseId("01a20489f0c20000@seoul"));
        for (String bad : new String[] {"", "NULL", "01a2@seoul", "zzzzzzzzzzzzzzzz@seoul", "../x"}) {
            assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> ObjectVersions.parseId(bad)).error());
        }
    }

    @Test
    void offBucket_showsOnlyALiveHead_asNull() {
        assertEquals(List.of("null*"), ids(ObjectVersions.visible("k", List.of(put(3, false), put(2, false)), Status.OFF)));
        assertEquals(List.of(), ids(ObjectVersions.visible("k", List.of(tomb(4), put(3, false)), Status.OFF)));
    }

    @Test
    void enabledBucket_showsKeptVersionsMarkersAndTheNewestNullVersion() {
        List<VersionEntry> vs = List.of(tomb(9), put(8, true), put(7, true), put(5, false), put(4, false));
        assertEquals(List.of("0000000000000009@dublin*D", "0000000000000008@seoul", "0000000000000007@seoul", "null"),
                ids(ObjectVersions.visible("k", vs, Status.ENABLED)), "the older null version was overwritten (S3)");
        ObjectVersions.V v = ObjectVersions.find("k", vs, Status.ENABLED, "null");
        assertEquals("0000000000000005@seoul", v.nodeVersion());
        assertEquals("e5", v.etag());
        assertNull(ObjectVersions.find("k", vs, Status.ENABLED, "0000000000000004@seoul"), "hidden: not found");
    }

    @Test
    void suspendedBucket_newPutsAreTheNullVersion_keptOnesStay() {
        List<VersionEntry> vs = List.of(put(9, false), put(8, true), put(6, false));
        assertEquals(List.of("null*", "0000000000000008@seoul"), ids(ObjectVersions.visible("k", vs, Status.SUSPENDED)));
    }

    @Test
    void status_parsesTheTwoS3Values_andTheRecordsForm() throws S3Exception {
        assertEquals(Status.ENABLED, Status.parse("Enabled"));
        assertEquals(Status.SUSPENDED, Status.parse("Suspended"));
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> Status.parse("enabled")).error());
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> Status.parse(null)).error());
        assertEquals(Status.OFF, Status.ofRecord(null));
        assertEquals(Status.ENABLED, Status.ofRecord("Enabled"));
        assertThrows(IllegalArgumentException.class, () -> Status.ofRecord("maybe"));
    }

    @Test
    void aTombstoneThatRemovedTheCurrentVersion_hidesItselfAndThatVersion_theOlderStayNoncurrent() {
        VersionEntry removal = new VersionEntry(10, "seoul", 0, "seoul", 10, 0, true,
                Map.of(ObjectVersions.META_REMOVES, "0000000000000009@seoul"));
        List<VersionEntry> onlyOne = List.of(removal, put(9, true));
        assertEquals(List.of(), ids(ObjectVersions.visible("k", onlyOne, Status.ENABLED)), "as S3: nothing left of the key");
        List<VersionEntry> two = List.of(removal, put(9, true), put(8, true));
        assertEquals(List.of("0000000000000008@seoul"), ids(ObjectVersions.visible("k", two, Status.ENABLED)),
                "the older version stays, noncurrent (S3 would make it current)");
    }

    @Test
    void purge_aNodeIdNamesThatVersion_aMarkerToo_nullNamesEveryUnmarkedLiveVersion() {
        List<VersionEntry> vs = List.of(tomb(9), put(8, true), put(5, false), put(4, false));
        ObjectVersions.Purge p = ObjectVersions.purge("k", vs, Status.ENABLED, "0000000000000008@seoul");
        assertEquals(List.of("0000000000000008@seoul"), p.nodeVersions());
        p = ObjectVersions.purge("k", vs, Status.ENABLED, "0000000000000009@dublin");
        assertEquals(List.of("0000000000000009@dublin"), p.nodeVersions());
        assertEquals(true, p.shown().deleteMarker());
        // the null version: the shown one and the older one the node still keeps (it would show next)
        p = ObjectVersions.purge("k", vs, Status.ENABLED, "null");
        assertEquals(List.of("0000000000000005@seoul", "0000000000000004@seoul"), p.nodeVersions());
        assertEquals("0000000000000005@seoul", p.shown().nodeVersion());
        // not shown: nothing to purge
        assertNull(ObjectVersions.purge("k", vs, Status.ENABLED, "0000000000000004@seoul"));
        assertNull(ObjectVersions.purge("k", vs, Status.ENABLED, "0000000000000001@seoul"));
        // a bucket never versioned: null is its live head, and every version under it goes too
        p = ObjectVersions.purge("k", List.of(put(3, false), tomb(2), put(1, false)), Status.OFF, "null");
        assertEquals(List.of("0000000000000003@seoul", "0000000000000001@seoul"), p.nodeVersions());
        assertNull(ObjectVersions.purge("k", List.of(tomb(4), put(3, false)), Status.OFF, "null"));
    }
}
