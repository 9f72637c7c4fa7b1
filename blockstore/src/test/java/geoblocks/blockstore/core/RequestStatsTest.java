package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class RequestStatsTest {
    private static final long MS = 1_000_000L;

    @Test
    void record_countsByOperationAndResult_andBucketsTheLatency() {
        RequestStats s = new RequestStats(10);
        s.record("get", "ok", 3 * MS, 1000, "a", "");
        s.record("get", "ok", 200 * MS, 1001, "a", "");
        s.record("get", "error", 70_000 * MS, 1002, "b", "no such file 'b'");
        s.record("put", "busy", 1 * MS, 1003, "c", "node busy");
        RequestStats.Snapshot snap = s.snapshot();
        assertEquals(2L, snap.counts().get("get").get("ok"));
        assertEquals(1L, snap.counts().get("get").get("error"));
        assertEquals(1L, snap.counts().get("put").get("busy"));
        List<Long> get = snap.latency().get("get").counts();
        assertEquals(RequestStats.BOUNDS_SECONDS.size() + 1, get.size());
        assertEquals(1L, get.get(RequestStats.BOUNDS_SECONDS.indexOf(0.005)));
        assertEquals(1L, get.get(RequestStats.BOUNDS_SECONDS.indexOf(0.25)));
        assertEquals(1L, get.get(get.size() - 1), "70 s is past the last bound: +Inf");
        assertEquals(3L, snap.latency().get("get").count());
        assertEquals(70.203, snap.latency().get("get").sumSeconds(), 1e-9);
        assertEquals(1L, snap.latency().get("put").counts().get(0), "1 ms is in the first bucket (le 0.001)");
    }

    @Test
    void bucketOf_boundIsInclusive() {
        assertEquals(0, RequestStats.bucketOf(0.0));
        assertEquals(0, RequestStats.bucketOf(0.001));
        assertEquals(1, RequestStats.bucketOf(0.0011));
        assertEquals(RequestStats.BOUNDS_SECONDS.size(), RequestStats.bucketOf(60.5));
    }

    @Test
    void recent_keepsTheNewestUpToTheLimit_oldestFirst() {
        RequestStats s = new RequestStats(2);
        s.record("stat", "ok", MS, 1, "x", "");
        s.record("stat", "ok", MS, 2, "y", "");
        s.record("delete", "error", 2 * MS, 3, "z", "no such file 'z'");
        List<RequestStats.Recent> r = s.snapshot().recent();
        assertEquals(List.of("y", "z"), r.stream().map(RequestStats.Recent::name).toList());
        assertEquals(new RequestStats.Recent(3, "delete", "z", "error", 2.0, "no such file 'z'"), r.get(1));
    }

    @Test
    void snapshot_isNotChangedByLaterRecords() {
        RequestStats s = new RequestStats(5);
        s.record("list", "ok", MS, 1, "", "");
        RequestStats.Snapshot before = s.snapshot();
        s.record("list", "ok", MS, 2, "", "");
        assertEquals(1L, before.counts().get("list").get("ok"));
        assertEquals(1, before.recent().size());
        assertEquals(1L, before.latency().get("list").count());
    }

    @Test
    void badArguments_areRefusedWithTheValue() {
        assertThrows(IllegalArgumentException.class, () -> new RequestStats(-1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RequestStats(1).record("get", "ok", -5, 0, "", ""));
        assertEquals("latency must not be negative: -5", e.getMessage());
    }
}
