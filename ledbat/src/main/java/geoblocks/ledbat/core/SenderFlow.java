package geoblocks.ledbat.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The sending side of the one LEDBAT flow from this node to one peer, pure (every call receives
 * the time in microseconds): every stream to the peer is multiplexed on its {@link SendWindow}
 * (one sequence space, one loss detector, streams served in turn), and one
 * {@link LedbatController} and one retransmission timer govern them all. So N concurrent streams
 * to a peer are one congestion-controlled flow, not N competing ones, and a stream opened while
 * others run starts with the flow's current window instead of a slow start of its own.
 * Invariant: {@link #streams()} holds the flow's streams that are neither done nor failed.
 */
public final class SenderFlow {
    /** What a timer tick did to the flow. */
    /**
     * What the timer found: nothing; a retransmission timeout (everything in flight is resent);
     * losses found once their reorder window passed (they are resent); or the flow given up.
     */
    public enum Tick { NOTHING, RETRANSMIT, RESEND, FAILED }

    private final int id;
    private final LedbatSettings settings;
    private final SendWindow window;
    private final LedbatController controller;
    private final List<SendStream> streams = new ArrayList<>();
    private long rtoDeadline = -1;
    private int consecutiveTimeouts;
    private long timeouts;
    private long receiverDuplicates;
    private long receiverOutOfOrder;
    private long minRtt = Long.MAX_VALUE;
    /** The peer's hold for foreground traffic (paces new data while held); null: never held. */
    private HoldPacer hold;
    /** Held when {@link #sendDue} last looked (to send at once when the hold ends). */
    private boolean wasHeld;

    /** @param base the base-delay history of the path to the peer (kept across flows) */
    public SenderFlow(int id, LedbatSettings settings, BaseDelayHistory base) {
        this.id = id;
        this.settings = settings;
        this.window = new SendWindow(settings.mss, settings.fifoStreams);
        this.controller = new LedbatController(settings, base);
    }

    public int id() {
        return id;
    }

    /** Opens a stream on this flow. */
    public SendStream open(int streamId) {
        SendStream s = window.open(streamId);
        streams.add(s);
        return s;
    }

    /** Queues bytes on an open stream (not after {@link #close}); the array must not be modified afterwards. */
    public void offer(SendStream s, byte[] data) {
        window.offer(s, data);
    }

    /** Queues the stream's FIN after its data. */
    public void close(SendStream s) {
        window.close(s);
    }

    /**
     * The next segment the flow's congestion window allows now, or null. While {@link #held held},
     * new data goes only as its {@link HoldPacer} allows; a retransmission goes as the window
     * allows, since holding it back would time the flow out.
     */
    public Segment nextToSend(long now) {
        if (held(now) && !window.retransmitPending()) {
            if (!hold.mayStart(now)) {
                return null;
            }
            Segment s = window.nextToSend(now, sendWindow(now));
            if (s != null) {
                hold.sent(now, Math.max(1, s.length()));
            }
            return s;
        }
        return window.nextToSend(now, controller.cwnd());
    }

    /**
     * Foreground traffic of the application's own shares the path to the peer: while {@code pacer}
     * holds (the peer's, shared by its flows), the flow sends new data only at the pacer's rate,
     * which keeps its streams moving and the receiver's expectations alive. LEDBAT's delay signal
     * yields to traffic the application does not own; this yields at once to traffic it knows it owns.
     */
    public void holdWith(HoldPacer pacer) {
        hold = pacer;
    }

    /**
     * The bytes the flow may have in flight at {@code now}: its congestion window, and while held at
     * least what the pacer's rate puts in flight over one smoothed RTT (plus one segment). The window
     * does not change while held (it waits for the hold's end, see {@link #onAck}), so without this a
     * flow held after its window had shrunk (a timeout, a slowdown) would stay below its pacer's rate
     * for the whole hold however far the hold aged: under foreground that never ends for long, a
     * drain's copies crawled at two segments per RTT.
     */
    double sendWindow(long now) {
        double cwnd = controller.cwnd();
        if (!held(now)) {
            return cwnd;
        }
        long srtt = controller.rto().srtt();
        return srtt <= 0 ? cwnd : Math.max(cwnd, hold.rate(now) * srtt / 1e6 + window.mss());
    }

    /** Held at {@code now} (see {@link #holdWith}). */
    public boolean held(long now) {
        return hold != null && hold.held(now);
    }

    /**
     * Whether the timer should try to send at {@code now}: the hold ended since the last call (the
     * window may have room it could not use), or the pacer lets a segment go while held.
     */
    public boolean sendDue(long now) {
        if (hold == null) {
            return false;
        }
        if (!hold.held(now)) {
            boolean ended = wasHeld;
            wasHeld = false;
            return ended && window.hasWork();
        }
        wasHeld = true;
        return window.hasWork() && hold.mayStart(now);
    }

    /**
     * Whether {@code s}, just returned by {@link #nextToSend}, should ask for an immediate ACK: a
     * FIN or a retransmission, or the last segment of this burst (nothing left to send, or the
     * window is full), so the receiver needs no delayed-ACK timer.
     */
    public boolean ackNow(Segment s, long now) {
        return s.fin() || s.isRetransmission() || !window.hasWork()
                || window.flightBytes() + window.mss() > sendWindow(now);
    }

    /** Arms the retransmission timer after sending if something is outstanding and it is not armed (RFC 6298 section 5.1). */
    public void armTimer(long now) {
        if (window.hasOutstanding() && rtoDeadline < 0) {
            rtoDeadline = now + controller.rto().cto();
        }
    }

    /**
     * Applies an ACK of this flow: the window (cumulative and selective), then the controller (delay
     * sample, RTT from the echoed timestamp, bytes newly acknowledged, loss). Streams it finished are
     * in {@link #completed()} (and no longer in {@link #streams()}), streams it acknowledged bytes of
     * in {@link #progressed()}. Returns false, changing nothing, if the ACK acknowledges data never sent.
     */
    public boolean onAck(long now, long cumAck, byte[] sack, int sackLen, long echoMicros, long delayMicros,
            int duplicates, int outOfOrder) {
        long flightBefore = window.flightBytes();
        long rtt = echoMicros <= now && echoMicros > now - 600_000_000L ? now - echoMicros : -1;
        if (rtt >= 0 && rtt < minRtt) {
            minRtt = rtt;
            window.reorderWindow(minRtt / 4);   // RACK's reo_wnd: a quarter of the minimum RTT
        }
        long newly = window.onAck(now, cumAck, sack, sackLen);
        if (newly < 0) {
            return false;
        }
        double cwndBefore = controller.cwnd();
        controller.onAck(now, newly, delayMicros, rtt, flightBefore);
        if (window.lastLosses() > 0) {
            controller.onLoss(now);
        }
        if (held(now)) {
            controller.restoreCwnd(cwndBefore); // delay samples and RTT still count; the window waits for the hold's end
        }
        receiverDuplicates = Math.max(receiverDuplicates, Integer.toUnsignedLong(duplicates));
        receiverOutOfOrder = Math.max(receiverOutOfOrder, Integer.toUnsignedLong(outOfOrder));
        if (newly > 0) {
            consecutiveTimeouts = 0;
            rtoDeadline = window.hasOutstanding() ? now + controller.rto().cto() : -1;
        }
        for (SendStream done : window.completed()) {
            streams.remove(done);
        }
        return true;
    }

    /** Streams the last ACK finished. */
    public List<SendStream> completed() {
        return window.completed();
    }

    /** Streams the last ACK acknowledged bytes of. */
    public List<SendStream> progressed() {
        return window.progressed();
    }

    /**
     * The timer: when the retransmission timeout expired (RFC 6817 section 2.4.2 / RFC 6298 sections
     * 5.4-5.6) every segment in flight is lost, cwnd = 1 MSS and the CTO doubles, once for the whole
     * flow ({@link Tick#RETRANSMIT}: send again); after more than {@code max-timeouts} consecutive
     * timeouts without progress the flow is given up ({@link Tick#FAILED}, with every stream). Before
     * the timeout, segments whose reorder window has passed since the last ACK are marked lost and
     * the controller told ({@link Tick#RESEND}: send them again).
     */
    public Tick onTick(long now) {
        if (rtoDeadline < 0 || now < rtoDeadline) {
            if (window.detectLosses(now) > 0) {
                double cwndBefore = controller.cwnd();
                controller.onLoss(now);
                if (held(now)) {
                    controller.restoreCwnd(cwndBefore);
                }
                return Tick.RESEND;
            }
            return Tick.NOTHING;
        }
        timeouts++;
        rtoDeadline = -1;
        if (++consecutiveTimeouts > settings.maxTimeouts) {
            return Tick.FAILED;
        }
        window.onTimeout();
        controller.onTimeout(now);
        return Tick.RETRANSMIT;
    }

    /** Consecutive timeouts without an acknowledgement so far. */
    public int consecutiveTimeouts() {
        return consecutiveTimeouts;
    }

    /** The open streams (neither done nor failed), in the order they were opened. */
    public List<SendStream> streams() {
        return streams;
    }

    /** Every stream opened on the flow is done: nothing is left to send or acknowledge. */
    public boolean isFinished() {
        return streams.isEmpty();
    }

    public SendWindow window() {
        return window;
    }

    public LedbatController controller() {
        return controller;
    }

    public long timeouts() {
        return timeouts;
    }

    public long receiverDuplicates() {
        return receiverDuplicates;
    }

    public long receiverOutOfOrder() {
        return receiverOutOfOrder;
    }
}
