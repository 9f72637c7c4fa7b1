package geoblocks.ledbat.component;

import geoblocks.ledbat.core.LedbatController;
import geoblocks.ledbat.core.PathMtuSearch;
import geoblocks.ledbat.core.RtoEstimator;
import geoblocks.ledbat.core.SendStream;
import geoblocks.ledbat.core.SendWindow;
import geoblocks.ledbat.core.SenderFlow;
import geoblocks.ledbat.port.StreamStats;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import se.sics.kompics.network.Transport;

/** The sending flow to one peer inside {@link LedbatComponent}: the pure core plus addressing. */
final class OutFlow {
    /** A path MTU probe unanswered for this long, or twice the smoothed RTT if longer, is lost. */
    static final long PROBE_TIMEOUT_MICROS = 200_000L;
    /** A path MTU probe is lost after this long while the flow has no RTT sample yet. */
    static final long PROBE_TIMEOUT_NO_RTT_MICROS = 1_000_000L;

    final NetAddress peer;
    final NetHeader header;
    final SenderFlow core;
    final PeerPath path;
    /** The window's large-segment counters as last fed to the path MTU search. */
    long seenLargeLost;
    long seenLargeAcked;

    OutFlow(NetAddress self, NetAddress peer, SenderFlow core, PeerPath path) {
        this.peer = peer;
        this.header = new NetHeader(self, peer, Transport.UDP);
        this.core = core;
        this.path = path;
        core.window().mss(path.payload());
        core.window().largeAbove(path.basePayload());
    }

    /** What {@link #expireProbe} found: the confirmed path MTU changed; a probe is due now (one instance each: no allocation per tick). */
    enum Expiry {
        NOTHING(false, false), PROBE(false, true), CHANGED(true, false), CHANGED_PROBE(true, true);

        private final boolean mtuChanged;
        private final boolean probeNow;

        Expiry(boolean mtuChanged, boolean probeNow) {
            this.mtuChanged = mtuChanged;
            this.probeNow = probeNow;
        }

        static Expiry of(boolean mtuChanged, boolean probeNow) {
            return mtuChanged ? (probeNow ? CHANGED_PROBE : CHANGED) : (probeNow ? PROBE : NOTHING);
        }

        boolean mtuChanged() {
            return mtuChanged;
        }

        boolean probeNow() {
            return probeNow;
        }
    }

    /**
     * Declares the path's outstanding probe lost once it waited longer than {@link #PROBE_TIMEOUT_MICROS} or twice
     * the flow's smoothed RTT ({@link #PROBE_TIMEOUT_NO_RTT_MICROS} before the first RTT sample); a search not yet
     * complete with no probe out wants its next probe now.
     */
    Expiry expireProbe(long nowMicros) {
        PathMtuSearch mtu = path.mtu;
        if (mtu == null || mtu.probing() == 0) {
            return Expiry.NOTHING;
        }
        long srtt = core.controller().rto().srtt();
        long timeout = srtt <= 0 ? PROBE_TIMEOUT_NO_RTT_MICROS : Math.max(PROBE_TIMEOUT_MICROS, 2 * srtt);
        int before = mtu.confirmed();
        mtu.expire(nowMicros * 1000, timeout * 1000);
        return Expiry.of(mtu.confirmed() != before, mtu.probing() == 0 && !mtu.complete());
    }

    /** Feeds the window's losses and acknowledgements of segments above the base size to black-hole detection. */
    void reportMtuOutcome() {
        if (path.mtu == null) {
            return;
        }
        SendWindow w = core.window();
        long lost = w.largeLost() - seenLargeLost;
        long acked = w.largeAcked() - seenLargeAcked;
        if (lost == 0 && acked == 0) {
            return;
        }
        seenLargeLost = w.largeLost();
        seenLargeAcked = w.largeAcked();
        if (lost > 0) {
            path.mtu.dataOutcome((int) Math.min(lost, Integer.MAX_VALUE), false);
        }
        if (acked > 0) {
            path.mtu.dataOutcome(0, true);
        }
    }

    /** The figures of {@code stream}, one of this flow's, at {@code nowMicros}. */
    StreamStats stats(SendStream stream, long nowMicros) {
        SendWindow w = core.window();
        LedbatController c = core.controller();
        RtoEstimator rto = c.rto();
        return new StreamStats(peer, stream.id(), nowMicros, w.sentPackets(), w.resentPackets(), stream.sentBytes(),
                stream.ackedBytes(), core.receiverOutOfOrder(), core.receiverDuplicates(), w.lostPackets(), c.cwndBytes(),
                w.flightBytes(), c.queuingDelay(), rto.latestRtt(), rto.srtt(), rto.rttvar(), rto.cto(), core.timeouts());
    }
}
