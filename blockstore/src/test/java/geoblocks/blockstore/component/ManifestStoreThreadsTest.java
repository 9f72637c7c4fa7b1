package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.TombstoneCollector;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The manifests' lock discipline ({@link ManifestStore}, {@link Versions}) from two threads at once, as two
 * components would write them: one merging peers' versions one name at a time and in anti-entropy batches,
 * the other merging versions of the same names and of its own while it sweeps the retention and reads. The
 * outcome is fixed whatever the interleaving (merges commute; each change prunes under the lock, so no prune
 * replaces a history with a version merged after its read): it must equal the same changes made on one thread,
 * history by history, digest by digest, with the same block deletions, none of them run under the lock.
 */
class ManifestStoreThreadsTest {
    private static final long NOW = 1_000_000_000L;
    private static final long RETENTION_MS = 10_000;
    private static final int OWN = 300;
    private static final int SHARED = 200;

    /** A store and the Versions over it, with what the retention deleted and whether any deletion ran under the lock. */
    private static final class Node {
        final ManifestStore store;
        final Versions versions;
        final List<BlockId> deleted = Collections.synchronizedList(new ArrayList<>());
        final AtomicBoolean deletedUnderLock = new AtomicBoolean();

        Node() throws IOException {
            this.store = new ManifestStore(new MemoryMetaEngine());
            this.versions = new Versions(store, "seoul", () -> NOW, RETENTION_MS,
                    new TombstoneCollector(List.of("seoul", "dublin", "mumbai"), 10_000, 60_000, 3_000), ids -> {
                        if (Thread.holdsLock(store)) {
                            deletedUnderLock.set(true);
                        }
                        deleted.addAll(ids);
                    });
        }
    }

    /** A version of {@code name} stamped by {@code region} at {@code millis}, one block that seoul holds. */
    private static ManifestHistory version(String name, String fileId, String region, long millis) {
        Manifest m = new Manifest(name, fileId, 4, 4, "local", region, 1,
                List.of(new Manifest.BlockRef(4, 7, List.of("seoul", region))));
        return ManifestHistory.of(m.withVersion(new Version(HybridClock.of(millis, 0), region)));
    }

    /**
     * The peer side: its own names in anti-entropy batches of 20, then on every shared name an old version and
     * its successor, also old (so the retention drops the first once the second is there).
     */
    private static void peerSide(Versions v) throws IOException {
        List<ManifestHistory> batch = new ArrayList<>();
        for (int i = 0; i < OWN; i++) {
            batch.add(version("a/" + i, "fa" + i, "dublin", NOW - 1_000));
            if (batch.size() == 20) {
                v.mergeAll(batch);
                batch = new ArrayList<>();
            }
        }
        for (int j = 0; j < SHARED; j++) {
            v.merge(version("s/" + j, "f1-" + j, "dublin", 1_000));
            v.merge(version("s/" + j, "f2-" + j, "dublin", 2_000));
        }
    }

    /** The client side: a recent version of every shared name and its own names, sweeping and reading between. */
    private static void clientSide(Versions v, ManifestStore store) throws IOException {
        for (int j = 0; j < SHARED; j++) {
            v.merge(version("s/" + j, "f3-" + j, "mumbai", NOW));
            v.merge(version("b/" + j, "fb" + j, "mumbai", NOW - 5_000));
            if (j % 10 == 0) {
                v.sweep();
                store.listing("", "", 50);
                store.bucketDigests();
                store.placed();
            }
            store.history("s/" + (SHARED - 1 - j));
        }
    }

    @Test
    void twoThreadsMergingSweepingAndReading_endAsOneThreadDoingTheSame_noDeletionUnderTheLock() throws Exception {
        Node expected = new Node();
        peerSide(expected.versions);
        clientSide(expected.versions, expected.store);

        for (int round = 0; round < 5; round++) {
            Node shared = new Node();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch go = new CountDownLatch(1);
            Thread peer = new Thread(() -> run(go, failures, () -> peerSide(shared.versions)), "peer-side");
            Thread client = new Thread(() -> run(go, failures, () -> clientSide(shared.versions, shared.store)), "client-side");
            peer.start();
            client.start();
            go.countDown();
            peer.join();
            client.join();

            assertEquals(List.of(), failures);
            assertSameManifests(expected, shared);
        }
    }

    @Test
    void retentionDeletions_runOnceTheLockIsReleased_inTheOrderDecided() throws IOException {
        Node n = new Node();
        n.versions.merge(version("x", "f1", "dublin", 1_000));
        n.versions.merge(version("y", "g1", "dublin", 1_000));
        n.versions.mergeAll(List.of(version("x", "f2", "dublin", 2_000), version("y", "g2", "dublin", 2_000)));
        assertFalse(n.deletedUnderLock.get());
        assertEquals(List.of(version("x", "f1", "dublin", 1_000).head().blockId(0),
                version("y", "g1", "dublin", 1_000).head().blockId(0)), n.deleted);
        assertEquals(List.of("f2"), n.store.history("x").orElseThrow().versions().stream().map(Manifest::fileId).toList());
    }

    private interface Work {
        void run() throws Exception;
    }

    private static void run(CountDownLatch go, List<Throwable> failures, Work work) {
        try {
            go.await();
            work.run();
        } catch (Throwable t) {
            failures.add(t);
        }
    }

    private static void assertSameManifests(Node expected, Node actual) {
        assertFalse(actual.deletedUnderLock.get(), "a block deletion ran under the store's lock");
        assertEquals(expected.store.names(), actual.store.names());
        assertEquals(expected.store.size(), actual.store.size());
        assertEquals(expected.store.placed(), actual.store.placed());
        assertArrayEquals(expected.store.bucketDigests(), actual.store.bucketDigests());
        assertEquals(expected.store.histories("", OWN + 2 * SHARED + 10),
                actual.store.histories("", OWN + 2 * SHARED + 10));
        List<BlockId> want = new ArrayList<>(expected.deleted);
        List<BlockId> got = new ArrayList<>(actual.deleted);
        Collections.sort(want);
        Collections.sort(got);
        assertEquals(want, got);
        assertEquals(SHARED, want.size(), "each shared name's first version is dropped, once");
    }
}
