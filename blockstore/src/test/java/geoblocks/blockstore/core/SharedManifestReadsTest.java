package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaBatch;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What another thread may read of a node's manifests ({@link SharedManifestReads}): only what the
 * store itself would answer, and only once it is durable (a write waiting for the group commit's
 * sync is not shown), so a reader never reveals a version a crash could still take back.
 */
class SharedManifestReadsTest {
    private static final byte[] DATA = "small".getBytes(StandardCharsets.UTF_8);

    private static Manifest inline(String name, long clock) {
        return Manifest.inline(name, "f" + clock, 1 << 20, "tworandom", "seoul", 1_700_000_000_000L,
                new Version(HybridClock.of(1_700_000_000_000L + clock, 0), "seoul"), Map.of("etag", "e" + clock), DATA);
    }

    @Test
    void aDeferredWrite_isHidden_untilASyncCoversIt_andItsOwnNewerWriteStaysHidden() throws Exception {
        ManifestStore store = new ManifestStore(new MemoryMetaEngine());
        store.deferSyncs();
        SharedManifestReads reads = store.sharedReads();
        store.save(inline("a", 1));
        assertEquals(Optional.empty(), reads.live("a"), "written, not synced yet");
        assertEquals(1, store.unsyncedNames());
        long firstSync = store.writes();
        store.save(inline("b", 2));
        store.synced(firstSync); // covers "a" only
        assertEquals(Optional.of(inline("a", 1)), reads.live("a"));
        assertEquals(Optional.empty(), reads.live("b"), "written after the sync started");
        store.save(inline("a", 3)); // a newer version of a synced name hides it again
        assertEquals(Optional.empty(), reads.live("a"));
        store.synced(store.writes());
        assertEquals(Optional.of(inline("a", 3)), reads.live("a"));
        assertEquals(Optional.of(inline("b", 2)), reads.live("b"));
        assertEquals(0, store.unsyncedNames());
    }

    @Test
    void withoutDeferredSyncs_everyWriteIsDurable_andShownAtOnce() throws Exception {
        ManifestStore store = new ManifestStore(new MemoryMetaEngine());
        store.save(inline("a", 1));
        assertEquals(Optional.of(inline("a", 1)), store.sharedReads().live("a"));
        assertEquals(0, store.unsyncedNames());
    }

    @Test
    void answersWhatTheStoreAnswers_andNothingForUnknownDeletedOrUnreadableNames() throws Exception {
        ManifestStore store = new ManifestStore(new MemoryMetaEngine());
        SharedManifestReads reads = store.sharedReads();
        assertEquals(Optional.empty(), reads.live("nowhere"));
        Manifest blocks = Manifests.of("big", 3 << 20, 1 << 20);
        store.save(blocks);
        assertEquals(store.find("big"), reads.live("big"), "a version with blocks is read as the store reads it");
        store.save(inline("gone", 1));
        store.save(Manifest.tombstone("gone", "f9", "seoul", 1_700_000_000_000L,
                new Version(HybridClock.of(1_700_000_000_000L + 9, 0), "seoul")));
        assertEquals(Optional.empty(), store.find("gone"));
        assertEquals(Optional.empty(), reads.live("gone"), "the newest version is a delete");
        store.engine().write(new MetaBatch().put(ManifestKeys.historyKey("torn"), new byte[] {1, 2, 3}));
        assertEquals(Optional.empty(), reads.live("torn"), "a record that does not decode");
        store.engine().write(new MetaBatch().put(ManifestKeys.historyKey("elsewhere"),
                ManifestCodec.encodeHistory(ManifestHistory.of(inline("other", 1)))));
        assertEquals(Optional.empty(), reads.live("elsewhere"), "a record of another name");
    }

    @Test
    void unsyncedNames_dropOnlyWhatASyncCovers() {
        UnsyncedNames u = new UnsyncedNames();
        u.writing(List.of("x", "y"), 1);
        u.writing(List.of("y"), 2);
        u.synced(1);
        assertFalse(u.contains("x"));
        assertTrue(u.contains("y"), "its write 2 is not covered by a sync up to 1");
        u.synced(2);
        assertFalse(u.contains("y"));
        assertEquals(0, u.size());
    }
}
