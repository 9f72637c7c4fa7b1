package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.net.NetAddress;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pending's deadlines with a fake clock, including touch, cancel and fail (used by LEDBAT transfers). */
class PendingTest {
    private static final long MS = 1_000_000L;
    private static final NetAddress PEER = new NetAddress(InetAddress.getLoopbackAddress(), 7001);
    private final Pending pending = new Pending();
    private final List<String> events = new ArrayList<>();
    private long now = 1_000 * MS;

    private void add(long req) {
        pending.add(req, PEER, Pending.Waiter.of(op -> {
            events.add("reply " + op.req());
            return true;
        }, why -> events.add("timeout " + req + ": " + why.code() + " " + why.text())), 100 * MS, now);
    }

    @Test
    void touch_movesTheDeadline_likeAReply() {
        add(1);
        now += 90 * MS;
        pending.touch(1, now);
        now += 90 * MS;
        pending.expire(now, "");
        assertEquals(List.of(), events);
        now += 20 * MS;
        pending.expire(now, "");
        assertEquals(1, events.size());
        assertTrue(events.get(0).startsWith("timeout 1: UNAVAILABLE "), events.toString());
    }

    @Test
    void cancel_dropsTheRequestSilently_laterRepliesAreNotRouted() {
        add(2);
        pending.cancel(2);
        assertFalse(pending.reply(PEER, new Done(2, "late"), now));
        now += 500 * MS;
        pending.expire(now, "");
        assertEquals(List.of(), events);
    }

    @Test
    void fail_runsTheWaitersTimeoutOnceWithTheReason() {
        add(3);
        pending.fail(3, "LEDBAT stream failed");
        pending.fail(3, "again");
        assertEquals(List.of("timeout 3: UNAVAILABLE LEDBAT stream failed"), events);
        assertFalse(pending.reply(PEER, new Done(3, "late"), now));
    }

    /** A request the network dropped unsent is failed as such, once, and only when it went to that peer. */
    @Test
    void failUnsent_tellsTheWaiterItNeverLeft_onlyForItsOwnPeer() {
        pending.add(5, PEER, new Pending.Waiter() {
            @Override
            public boolean onReply(FileOp op) {
                return true;
            }

            @Override
            public void onTimeout(String why) {
                events.add("timeout " + why);
            }

            @Override
            public void onUnsent(String why) {
                events.add("unsent " + why);
            }
        }, 100 * MS, now);
        pending.failUnsent(5, new NetAddress(InetAddress.getLoopbackAddress(), 7002), "refused");
        assertEquals(List.of(), events, "request 5 went to another peer: a reply of ours with its number, not it");
        pending.failUnsent(5, PEER, "refused");
        pending.failPeer(PEER, "cannot reach");
        assertEquals(List.of("unsent refused"), events);
        add(6);
        pending.failUnsent(6, PEER, "refused");
        assertEquals(List.of("unsent refused", "timeout 6: UNAVAILABLE refused"), events, "by default as a timeout");
    }
}
