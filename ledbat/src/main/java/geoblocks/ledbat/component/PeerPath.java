package geoblocks.ledbat.component;

import geoblocks.ledbat.core.BaseDelayHistory;
import geoblocks.ledbat.core.SenderFlow;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.net.NetAddress;

/**
 * What {@link LedbatComponent} keeps per peer it sends to, across flows: the path's base-delay
 * history (shared by the flows, as the path's), the active flow if any, totals of the finished
 * flows, and the last flow's final delays. Forgotten once idle for the base-delay history's length.
 */
final class PeerPath {
    final NetAddress peer;
    final BaseDelayHistory base;
    OutFlow active;
    long idleSinceMicros;
    private long resent;
    private long timeouts;
    private long sent;
    private long acked;
    private long lastQueuingDelay = -1;
    private long lastSrtt = -1;

    PeerPath(NetAddress peer, int baseHistoryMinutes) {
        this.peer = peer;
        this.base = new BaseDelayHistory(baseHistoryMinutes);
    }

    /** The active flow ended (finished or failed): keep its totals and final delays. */
    void ended(SenderFlow f, long now) {
        resent += f.window().resentPackets();
        timeouts += f.timeouts();
        sent += f.window().sentBytes();
        acked += f.window().ackedBytes();
        lastQueuingDelay = f.controller().queuingDelay();
        lastSrtt = f.controller().rto().srtt();
        active = null;
        idleSinceMicros = now;
    }

    PeerStats.Peer stats() {
        long b = base.base();
        long baseDelay = b == Long.MAX_VALUE ? Long.MIN_VALUE : b;   // none yet
        if (active == null) {
            return new PeerStats.Peer(peer, false, 0, 0, 0, 0, lastQueuingDelay, baseDelay, lastSrtt, resent, timeouts,
                    sent, acked);
        }
        SenderFlow f = active.core;
        var w = f.window();
        var c = f.controller();
        return new PeerStats.Peer(peer, true, f.streams().size(), c.cwndBytes(), w.queuedBytes(), w.flightBytes(),
                c.queuingDelay(), baseDelay, c.rto().srtt(), resent + w.resentPackets(), timeouts + f.timeouts(),
                sent + w.sentBytes(), acked + w.ackedBytes());
    }
}
