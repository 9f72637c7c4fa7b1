package geoblocks.ledbat.component;

import geoblocks.ledbat.core.BaseDelayHistory;
import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.ledbat.core.ReceiveWindow;
import geoblocks.ledbat.core.Segment;
import geoblocks.ledbat.core.SendWindow;
import geoblocks.ledbat.port.CloseStream;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.ledbat.port.OpenStream;
import geoblocks.ledbat.port.SendData;
import geoblocks.ledbat.port.SendProgress;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import geoblocks.ledbat.port.StreamStats;
import geoblocks.ledbat.port.TransportStats;
import geoblocks.ledbat.wire.AckPacket;
import geoblocks.ledbat.wire.DataPacket;
import geoblocks.net.NetAddress;
import geoblocks.net.NetBurst;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.CancelPeriodicTimeout;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * The LEDBAT transport (RFC 6817) as a Kompics component: provides {@link LedbatPort}, requires
 * Network (UDP) and Timer. Thin glue: it reads the clock (System.nanoTime, simulated inside the
 * Kompics simulator), turns port requests and datagrams into calls on the pure core
 * ({@code SendWindow}, {@code LedbatController}, {@code ReceiveWindow}) and turns their results into
 * packets and indications. It starts no thread; one periodic timer drives retransmission timeouts
 * and statistics. Streams to the same peer share one base-delay history (the path's base delay),
 * so parallel streams see the same queuing delay and share the link fairly.
 */
public final class LedbatComponent extends ComponentDefinition {
    /** Finished receiving streams remembered to re-acknowledge a retransmitted FIN. */
    private static final int CLOSED_MEMORY = 4096;
    /** A receiving stream that hears nothing for this long is dropped. */
    private static final long RECEIVER_IDLE_MICROS = 120_000_000L;
    private static final byte[] NO_SACK = new byte[0];

    private final Negative<LedbatPort> ledbat = provides(LedbatPort.class);
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final NetAddress self;
    /** Data packets of one pump leave as one NetBurst (only on a network that unpacks them). */
    private final boolean bursts;
    private final LedbatSettings settings;
    private final Map<Integer, SenderStream> senders = new HashMap<>();
    private final Map<NetAddress, BaseDelayHistory> baseByPeer = new HashMap<>();
    private final Map<ReceiverStream.Key, ReceiverStream> receivers = new HashMap<>();
    private final Map<ReceiverStream.Key, Long> closed = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ReceiverStream.Key, Long> e) {
            return size() > CLOSED_MEMORY;
        }
    };
    private int nextStreamId;
    private Object tickId;
    private long nextStatsMicros;
    private long stale;
    private long invalid;
    private long beyondWindow;

    public LedbatComponent(LedbatInit init) {
        this.self = init.self;
        this.bursts = init.bursts;
        this.settings = init.settings != null ? init.settings : LedbatSettings.from(k -> config().readValue(k).orElse(null));
        this.nextStreamId = (int) (System.nanoTime() ^ self.hashCode()) & 0x3fffffff;
        handle(control, se.sics.kompics.Start.class, e -> startTicking());
        handle(control, se.sics.kompics.Stop.class, e -> stopTicking());
        handle(ledbat, OpenStream.class, this::onOpen);
        handle(ledbat, SendData.class, this::onSendData);
        handle(ledbat, CloseStream.class, this::onClose);
        handle(net, DataPacket.class, this::onData);
        handle(net, AckPacket.class, this::onAck);
        handle(timer, Tick.class, this::onTick);
    }

    private static long nowMicros() {
        return System.nanoTime() / 1000;
    }

    private void startTicking() {
        SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(settings.tickMillis, settings.tickMillis);
        spt.setTimeoutEvent(new Tick(spt));
        tickId = spt.getTimeoutEvent().getTimeoutId();
        trigger(spt, timer);
        nextStatsMicros = nowMicros() + settings.statsIntervalMillis * 1000;
    }

    /** Stops the periodic timer (e.g. before the component is killed). */
    private void stopTicking() {
        if (tickId != null) {
            trigger(new CancelPeriodicTimeout((java.util.UUID) tickId), timer);
            tickId = null;
        }
    }

    // ---- sender side ----

    private void onOpen(OpenStream req) {
        int id = nextStreamId++ & 0x7fffffff;
        BaseDelayHistory base = baseByPeer.computeIfAbsent(req.peer(),
                p -> new BaseDelayHistory(settings.baseHistoryMinutes));
        senders.put(id, new SenderStream(id, self, req.peer(), settings, base));
        trigger(new StreamOpened(req.tag(), id, req.peer()), ledbat);
    }

    private void onSendData(SendData req) {
        SenderStream s = senders.get(req.streamId());
        if (s == null) {
            trigger(new StreamFailed(null, req.streamId(), true, "SendData on unknown or finished stream "
                    + req.streamId()), ledbat);
            return;
        }
        if (s.window.isClosed()) {
            // misuse by the application: report it, never crash the transport
            trigger(new StreamFailed(s.peer, s.id, true, "SendData after CloseStream on stream " + s.id
                    + "; " + req.data().length + " bytes ignored"), ledbat);
            return;
        }
        s.window.offer(req.data());
        pump(s, nowMicros());
    }

    private void onClose(CloseStream req) {
        SenderStream s = senders.get(req.streamId());
        if (s != null) {
            s.window.close();
            pump(s, nowMicros());
        }
    }

    /** Sends whatever the window and cwnd allow; arms the retransmission timer (RFC 6298 section 5.1). */
    private void pump(SenderStream s, long now) {
        SendWindow w = s.window;
        Segment seg;
        List<DataPacket> burst = null;
        while ((seg = w.nextToSend(now, s.controller.cwnd())) != null) {
            boolean ackNow = seg.fin() || seg.isRetransmission() || !w.hasWork()
                    || w.flightBytes() + settings.mss > s.controller.cwnd();
            DataPacket p = new DataPacket(s.header, s.id, seg.seq(), now, seg.fin(), ackNow, seg.data(), seg.offset(),
                    seg.length());
            if (!bursts) {
                trigger(p, net);
            } else {
                if (burst == null) {
                    burst = new ArrayList<>();
                }
                burst.add(p);
            }
        }
        if (burst != null) {
            trigger(burst.size() == 1 ? burst.get(0) : new NetBurst(s.header, burst), net);
        }
        if (w.hasOutstanding() && s.rtoDeadline < 0) {
            s.rtoDeadline = now + s.controller.rto().cto();
        }
    }

    private void onAck(AckPacket ack) {
        SenderStream s = senders.get(ack.streamId());
        if (s == null || !s.peer.equals(ack.getHeader().source())) {
            stale++;
            return;
        }
        long now = nowMicros();
        SendWindow w = s.window;
        long flightBefore = w.flightBytes();
        long newly = w.onAck(ack.cumAck(), ack.sack(), ack.sack().length);
        if (newly < 0) {
            invalid++;
            return;
        }
        long rtt = ack.echoMicros() <= now && ack.echoMicros() > now - 600_000_000L ? now - ack.echoMicros() : -1;
        s.controller.onAck(now, newly, ack.delayMicros(), rtt, flightBefore);
        if (w.lastLosses() > 0) {
            s.controller.onLoss(now);
        }
        s.receiverDuplicates = Math.max(s.receiverDuplicates, Integer.toUnsignedLong(ack.duplicates()));
        s.receiverOutOfOrder = Math.max(s.receiverOutOfOrder, Integer.toUnsignedLong(ack.outOfOrder()));
        if (newly > 0) {
            s.consecutiveTimeouts = 0;
            s.rtoDeadline = w.hasOutstanding() ? now + s.controller.rto().cto() : -1;
        }
        if (w.isComplete()) {
            senders.remove(s.id);
            trigger(new SendProgress(s.id, w.ackedBytes(), 0), ledbat);
            trigger(new StreamClosed(s.peer, s.id, true, w.ackedBytes()), ledbat);
            return;
        }
        pump(s, now);
        long acked = w.ackedBytes();
        if (acked - s.notifiedAcked >= settings.progressBytes
                || (acked > s.notifiedAcked && w.queuedBytes() == 0)) {
            s.notifiedAcked = acked;
            trigger(new SendProgress(s.id, acked, w.queuedBytes()), ledbat);
        }
    }

    // ---- receiver side ----

    private void onData(DataPacket p) {
        NetAddress peer = p.getHeader().source();
        ReceiverStream.Key key = new ReceiverStream.Key(peer, p.streamId());
        ReceiverStream r = receivers.get(key);
        long now = nowMicros();
        if (r == null) {
            Long finalAck = closed.get(key);
            if (finalAck != null) {
                stale++;
                trigger(new AckPacket(new geoblocks.net.NetHeader(self, peer, p.getHeader().protocol()), p.streamId(),
                        finalAck, p.timestampMicros(), now - p.timestampMicros(), 0, 0, NO_SACK), net);
                return;
            }
            if (p.seq() >= settings.receiveWindowPackets) {
                stale++;
                return;
            }
            r = new ReceiverStream(self, peer, p.streamId(), settings.receiveWindowPackets, now);
            receivers.put(key, r);
        }
        r.lastHeard = now;
        ReceiveWindow w = r.window;
        ReceiveWindow.Outcome o = w.onSegment(p.seq(), p.payload(), p.fin());
        if (o == ReceiveWindow.Outcome.BEYOND_WINDOW) {
            beyondWindow++;
        }
        r.unacked++;
        if (p.ackNow() || o != ReceiveWindow.Outcome.IN_ORDER || r.unacked >= settings.ackEvery || w.isComplete()) {
            deliver(r);
            int sackLen = w.writeSack(r.sackScratch);
            byte[] sack = sackLen == 0 ? NO_SACK : java.util.Arrays.copyOf(r.sackScratch, sackLen);
            trigger(new AckPacket(r.replyHeader, r.id, w.next(), p.timestampMicros(), now - p.timestampMicros(),
                    (int) w.duplicates(), (int) w.outOfOrder(), sack), net);
            r.unacked = 0;
            if (w.isComplete()) {
                receivers.remove(key);
                closed.put(key, w.next());
                trigger(new StreamClosed(peer, r.id, false, w.deliveredBytes()), ledbat);
            }
        }
    }

    private void deliver(ReceiverStream r) {
        if (r.window.deliverableBytes() > 0) {
            byte[] data = r.window.drainDeliverable();
            trigger(new DataReceived(r.peer, r.id, r.deliveredOffset, data), ledbat);
            r.deliveredOffset += data.length;
        }
    }

    // ---- timer ----

    private void onTick(Tick t) {
        long now = nowMicros();
        for (Iterator<SenderStream> it = senders.values().iterator(); it.hasNext();) {
            SenderStream s = it.next();
            if (s.rtoDeadline >= 0 && now >= s.rtoDeadline) {
                // RFC 6817 section 2.4.2 / RFC 6298 section 5.4-5.6: cwnd = 1 MSS, CTO doubles, resend
                s.timeouts++;
                if (++s.consecutiveTimeouts > settings.maxTimeouts) {
                    it.remove();
                    trigger(new StreamFailed(s.peer, s.id, true, s.consecutiveTimeouts - 1
                            + " consecutive timeouts without an acknowledgement"), ledbat);
                    continue;
                }
                s.window.onTimeout();
                s.controller.onTimeout(now);
                s.rtoDeadline = -1;
                pump(s, now);
            }
        }
        for (Iterator<ReceiverStream> it = receivers.values().iterator(); it.hasNext();) {
            ReceiverStream r = it.next();
            if (now - r.lastHeard > RECEIVER_IDLE_MICROS) {
                it.remove();
                trigger(new StreamFailed(r.peer, r.id, false, "no packet for "
                        + RECEIVER_IDLE_MICROS / 1_000_000 + " s"), ledbat);
            }
        }
        if (settings.statsIntervalMillis > 0 && now >= nextStatsMicros) {
            nextStatsMicros = now + settings.statsIntervalMillis * 1000;
            for (SenderStream s : new ArrayList<>(senders.values())) {
                trigger(stats(s, now), ledbat);
            }
            trigger(new TransportStats(stale, invalid, beyondWindow, senders.size(), receivers.size()), ledbat);
        }
    }

    private static StreamStats stats(SenderStream s, long now) {
        SendWindow w = s.window;
        var c = s.controller;
        var rto = c.rto();
        return new StreamStats(s.peer, s.id, now, w.sentPackets(), w.resentPackets(), w.sentBytes(),
                w.ackedBytes(), s.receiverOutOfOrder, s.receiverDuplicates, w.lostPackets(), c.cwndBytes(),
                w.flightBytes(), c.queuingDelay(), rto.latestRtt(), rto.srtt(), rto.rttvar(), rto.cto(), s.timeouts);
    }

    /** The component's periodic timer. */
    static final class Tick extends Timeout {
        Tick(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }
}
