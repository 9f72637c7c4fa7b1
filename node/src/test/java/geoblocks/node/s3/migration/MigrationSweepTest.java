package geoblocks.node.s3.migration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The sweep's decisions: who drives a migration, back-off, one move per name, done and newer versions dropped. */
class MigrationSweepTest {
    static final List<String> HOME = List.of("dublin", "mumbai");
    final AtomicLong now = new AtomicLong(1_000_000);
    final MigrationSweep sweep = new MigrationSweep("seoul", now::get, 5_000, 300_000);

    /** A 2-block version of {@code name} stored at {@code at} on {@code created}, its blocks held by {@code replicas}. */
    static Manifest manifest(String name, String at, long created, List<String> replicas, boolean migrate) {
        Map<String, String> meta = migrate ? Map.of(PendingMigration.META, String.join(",", HOME)) : Map.of();
        List<Manifest.BlockRef> blocks = List.of(new Manifest.BlockRef(4, 1, replicas), new Manifest.BlockRef(2, 2, replicas));
        return new Manifest(name, "f-" + name, 6, 4, "local", at, created, blocks,
                new Version(HybridClock.of(created, 0), at), 0, false, meta);
    }

    static ListEntry listed(Manifest m) {
        return new ListEntry(m.name(), m.size(), m.blockSize(), m.policy(), m.uploadedAt(), m.createdMillis(), m.meta());
    }

    @Test
    void backoff_startsAtMin_doubles_andIsCapped() {
        assertEquals(5_000, sweep.backoffMs(1));
        assertEquals(10_000, sweep.backoffMs(2));
        assertEquals(20_000, sweep.backoffMs(3));
        assertEquals(160_000, sweep.backoffMs(6));
        assertEquals(300_000, sweep.backoffMs(7));
        assertEquals(300_000, sweep.backoffMs(1_000));
        assertThrows(IllegalArgumentException.class, () -> new MigrationSweep("seoul", now::get, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new MigrationSweep("seoul", now::get, 10, 5));
    }

    @Test
    void onlyTheRegionThatStoredIt_drivesIt_andOnlyWithMigrateTo() {
        Manifest mine = manifest("b/mine", "seoul", 1, List.of("seoul"), true);
        Manifest theirs = manifest("b/theirs", "dublin", 1, List.of("dublin"), true);
        Manifest atHome = manifest("b/home", "seoul", 1, List.of("seoul"), false);
        assertEquals(List.of("b/mine"), sweep.toCheck(List.of(listed(atHome), listed(mine), listed(theirs))));
        assertEquals(Optional.empty(), sweep.start(theirs));
        assertEquals(Optional.empty(), sweep.start(atHome));
        assertEquals(Optional.of(HOME), sweep.start(mine));
    }

    @Test
    void neverTwoMovesOfOneName() {
        Manifest m = manifest("b/k", "seoul", 1, List.of("seoul"), true);
        assertEquals(Optional.of(HOME), sweep.start(m));
        assertEquals(List.of(), sweep.toCheck(List.of(listed(m))), "a running move is not checked again");
        assertEquals(Optional.empty(), sweep.start(m), "nor started twice");
        assertFalse(sweep.begin("b/k"));
        assertFalse(sweep.beginNew("b/k"), "a new upload's move waits for the running one");
        sweep.succeeded("b/k");
        assertTrue(sweep.begin("b/k"));
    }

    @Test
    void aSweepStartsAFewMovesAtOnce_theRestLater() {
        List<ListEntry> listing = new ArrayList<>();
        List<Manifest> all = new ArrayList<>();
        for (int i = 0; i < MigrationSweep.MOVES_AT_ONCE + 3; i++) {
            Manifest m = manifest("b/k" + (100 + i), "seoul", 1, List.of("seoul"), true);
            all.add(m);
            listing.add(listed(m));
        }
        assertTrue(sweep.beginNew("b/upload")); // an upload's move counts too
        List<String> first = sweep.toCheck(listing);
        assertEquals(MigrationSweep.MOVES_AT_ONCE - 1, first.size());
        for (Manifest m : all.subList(0, first.size())) {
            assertEquals(Optional.of(HOME), sweep.start(m));
        }
        assertEquals(Optional.empty(), sweep.start(all.get(first.size())), "no more than MOVES_AT_ONCE run");
        assertEquals(List.of(), sweep.toCheck(listing));
        sweep.succeeded("b/k100");
        sweep.succeeded("b/upload");
        // two places free: the moved one is stat once more (a listing does not tell done), then the next waiting one
        assertEquals(List.of("b/k100", "b/k" + (100 + first.size())), sweep.toCheck(listing));
        assertEquals(Optional.empty(), sweep.start(manifest("b/k100", "seoul", 1, HOME, true)));
        assertEquals(List.of("b/k" + (100 + first.size()), "b/k" + (101 + first.size())), sweep.toCheck(listing));
    }

    @Test
    void failedMoves_waitForTheBackoff_thenStartAgain() {
        Manifest m = manifest("b/k", "seoul", 1, List.of("seoul"), true);
        assertTrue(sweep.beginNew("b/k")); // the upload's own move
        sweep.failed("b/k");
        assertEquals(1, sweep.failures("b/k"));
        now.addAndGet(4_999);
        assertEquals(List.of(), sweep.toCheck(List.of(listed(m))));
        assertEquals(Optional.empty(), sweep.start(m));
        now.addAndGet(1);
        assertEquals(List.of("b/k"), sweep.toCheck(List.of(listed(m))));
        assertEquals(Optional.of(HOME), sweep.start(m));
        sweep.failed("b/k");
        now.addAndGet(9_999);
        assertEquals(List.of(), sweep.toCheck(List.of(listed(m))), "the second failure waits twice as long");
        now.addAndGet(1);
        assertEquals(Optional.of(HOME), sweep.start(m));
        sweep.succeeded("b/k");
        assertEquals(0, sweep.failures("b/k"));
    }

    @Test
    void doneObjects_areDropped_andNotStatAgain() {
        Manifest moved = manifest("b/k", "seoul", 7, HOME, true);
        assertEquals(List.of("b/k"), sweep.toCheck(List.of(listed(moved))));
        assertEquals(Optional.empty(), sweep.start(moved));
        assertEquals(List.of(), sweep.toCheck(List.of(listed(moved))), "known done: no stat");
        Manifest partly = manifest("b/p", "seoul", 7, List.of("dublin", "seoul"), true);
        assertEquals(Optional.of(HOME), sweep.start(partly), "blocks not exactly at the targets: not done");
    }

    @Test
    void aNewerVersionOrADelete_endsTheOldVersionsMigration() {
        assertTrue(sweep.beginNew("b/k"));
        sweep.failed("b/k");
        sweep.failed("b/k");
        // a newer version written at home (no migrate-to) is not this node's to move; its failures are forgotten
        Manifest newer = manifest("b/k", "dublin", 2, List.of("dublin"), false);
        assertEquals(List.of(), sweep.toCheck(List.of(listed(newer))));
        assertEquals(0, sweep.failures("b/k"));
        assertEquals(Optional.empty(), sweep.start(newer));
        // deleted: the listing no longer shows it
        assertTrue(sweep.begin("b/d"));
        sweep.failed("b/d");
        assertEquals(List.of(), sweep.toCheck(List.of()));
        assertEquals(0, sweep.failures("b/d"));
        // a newer version stored here again starts afresh, even after the old one was known done
        Manifest done = manifest("b/k", "seoul", 3, HOME, true);
        sweep.start(done);
        assertEquals(List.of(), sweep.toCheck(List.of(listed(done))));
        Manifest again = manifest("b/k", "seoul", 4, List.of("seoul"), true);
        assertEquals(List.of("b/k"), sweep.toCheck(List.of(listed(again))), "another creation time: checked");
        assertEquals(Optional.of(HOME), sweep.start(again));
        sweep.ended("b/k"); // the move met a newer version
        assertEquals(0, sweep.failures("b/k"));
        assertEquals(List.of("b/k"), sweep.toCheck(List.of(listed(again))));
    }

    @Test
    void pendingMigration_isReadFromTheManifest() {
        PendingMigration p = PendingMigration.of(manifest("b/k", "seoul", 1, List.of("seoul"), true)).orElseThrow();
        assertEquals(new PendingMigration("seoul", HOME, false), p);
        assertTrue(PendingMigration.of(manifest("b/k", "seoul", 1, List.of("mumbai", "dublin"), true)).orElseThrow().done());
        assertTrue(PendingMigration.of(manifest("b/k", "seoul", 1, List.of("seoul"), false)).isEmpty());
    }

    @Test
    void aPassOverPages_forgetsOnlyAtItsEnd_andCapsMovesAcrossPages() {
        Manifest a = manifest("b/a", "seoul", 1, List.of("seoul"), true);
        Manifest z = manifest("b/z", "seoul", 1, List.of("seoul"), true);
        // a is done: remembered by its creation time, so no stat
        assertEquals(List.of("b/a", "b/z"), sweep.toCheck(List.of(listed(a), listed(z))));
        assertEquals(Optional.empty(), sweep.start(manifest("b/a", "seoul", 1, HOME, true)));
        sweep.failed("b/z");
        MigrationSweep.Pass pass = sweep.pass();
        assertEquals(List.of(), pass.toCheck(List.of(listed(a))), "done, and still known on the first page");
        assertEquals(1, sweep.failures("b/z"), "nothing is forgotten before the walk ends");
        assertEquals(List.of(), pass.toCheck(List.of(listed(z))), "z waits for its back-off");
        pass.end();
        assertEquals(1, sweep.failures("b/z"), "z was listed: its failures are kept");
        MigrationSweep.Pass without = sweep.pass();
        without.toCheck(List.of(listed(a)));
        assertEquals(1, sweep.failures("b/z"));
        without.end();
        assertEquals(0, sweep.failures("b/z"), "a walk that did not list z forgets it");

        // moves at once count the moves started from earlier pages
        MigrationSweep.Pass many = sweep.pass();
        for (int page = 0; page < 3; page++) {
            List<ListEntry> entries = new ArrayList<>();
            for (int i = 0; i < MigrationSweep.MOVES_AT_ONCE / 2 + 1; i++) {
                entries.add(listed(manifest("b/p" + page + "-" + i, "seoul", 1, List.of("seoul"), true)));
            }
            for (String name : many.toCheck(entries)) {
                assertTrue(sweep.start(manifest(name, "seoul", 1, List.of("seoul"), true)).isPresent());
            }
        }
        many.end();
        assertEquals(List.of(), sweep.toCheck(List.of(listed(manifest("b/q", "seoul", 1, List.of("seoul"), true)))));
    }

    @Test
    void anIdleSweepWalksOnlyWhenAWalkCanFindSomething() {
        assertTrue(sweep.walkDue(), "the first sweep after a start walks (migrations of an earlier run)");
        MigrationSweep.Pass first = sweep.pass();
        first.toCheck(List.of(listed(manifest("b/home", "seoul", 1, List.of("seoul"), false))));
        first.end();
        assertFalse(sweep.walkDue(), "nothing pending: the next sweep lists nothing");

        assertTrue(sweep.beginNew("b/new")); // an upload's own move
        assertFalse(sweep.walkDue(), "a running move needs no walk");
        sweep.succeeded("b/new");
        assertFalse(sweep.walkDue());
        assertTrue(sweep.beginNew("b/other"));
        sweep.failed("b/other");
        assertTrue(sweep.walkDue(), "a failed move waits for a walk to retry it");
        now.addAndGet(5_000);
        Manifest other = manifest("b/other", "seoul", 2, List.of("seoul"), true);
        MigrationSweep.Pass retry = sweep.pass();
        assertEquals(List.of("b/other"), retry.toCheck(List.of(listed(other))));
        retry.end();
        assertEquals(Optional.of(HOME), sweep.start(other));
        sweep.succeeded("b/other");
        assertFalse(sweep.walkDue());
    }

    @Test
    void aWalkThatLeavesPendingObjectsUnstartedWalksAgain() {
        List<ListEntry> page = new ArrayList<>();
        for (int i = 0; i < MigrationSweep.MOVES_AT_ONCE + 3; i++) {
            page.add(listed(manifest("b/" + i, "seoul", 1, List.of("seoul"), true)));
        }
        MigrationSweep.Pass pass = sweep.pass();
        List<String> now = pass.toCheck(page);
        assertEquals(MigrationSweep.MOVES_AT_ONCE, now.size());
        pass.end();
        assertTrue(sweep.walkDue(), "three objects wait for a free move");
        for (String n : now) {
            sweep.start(manifest(n, "seoul", 1, List.of("seoul"), true));
        }
        assertTrue(sweep.start(manifest("b/extra", "seoul", 1, List.of("seoul"), true)).isEmpty());
        for (String n : now) {
            sweep.succeeded(n);
        }
        assertTrue(sweep.walkDue());
        MigrationSweep.Pass again = sweep.pass(); // the moved ones are listed done (no migrate-to) by now
        assertEquals(List.of("b/" + MigrationSweep.MOVES_AT_ONCE, "b/" + (MigrationSweep.MOVES_AT_ONCE + 1),
                "b/" + (MigrationSweep.MOVES_AT_ONCE + 2)), again.toCheck(page.subList(MigrationSweep.MOVES_AT_ONCE, page.size())));
        again.end();
        assertFalse(sweep.walkDue(), "every pending object was started");
    }
}
