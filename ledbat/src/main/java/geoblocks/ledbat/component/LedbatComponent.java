package geoblocks.ledbat.component;

import geoblocks.ledbat.core.HoldPacer;
import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.ledbat.core.ReceiveWindow;
import geoblocks.ledbat.core.ReceiverFlow;
import geoblocks.ledbat.core.Segment;
import geoblocks.ledbat.core.SendStream;
import geoblocks.ledbat.core.SenderFlow;
import geoblocks.ledbat.port.CloseStream;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.ForegroundActive;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.ledbat.port.OpenStream;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.ledbat.port.SendData;
import geoblocks.ledbat.port.SendProgress;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import geoblocks.ledbat.port.TransportStats;
import geoblocks.ledbat.wire.AckPacket;
import geoblocks.ledbat.wire.DataPacket;
import geoblocks.ledbat.wire.LedbatCodec;
import geoblocks.ledbat.wire.ProbeAck;
import geoblocks.ledbat.wire.ProbePacket;
import geoblocks.net.DatagramRefused;
import geoblocks.net.NetAddress;
import geoblocks.net.NetBurst;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.Start;
import se.sics.kompics.Stop;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.CancelPeriodicTimeout;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * The LEDBAT transport (RFC 6817) as a Kompics component: provides {@link LedbatPort}, requires
 * Network (UDP) and Timer. Thin glue: it reads the clock (System.nanoTime, simulated inside the
 * Kompics simulator), turns port requests and datagrams into calls on the pure core and turns the
 * results into packets and indications. All streams to one peer are multiplexed on one flow
 * ({@link SenderFlow}: one send window, one {@code LedbatController}, one retransmission timer);
 * the flow exists while it has open streams, and the next stream after it ends starts a new one
 * (new flow id). The receiver keeps one {@link ReceiverFlow} per (peer, flow id). Flows to the same
 * peer share that path's base-delay history ({@link PeerPath}). It starts no thread; one periodic
 * timer drives retransmission timeouts and statistics. Packets may also arrive as a
 * {@link NetBurst} (several from one peer in one event); each is handled as if it came alone.
 * Each peer's path MTU is searched while a flow to it runs ({@link geoblocks.ledbat.core.PathMtuSearch}:
 * padded {@link ProbePacket}s, answered by {@link ProbeAck}s, and the network's {@link DatagramRefused}
 * reports); the flow's new segments carry what the confirmed size allows.
 */
public final class LedbatComponent extends ComponentDefinition {
    /** A receiving flow that hears nothing for this long is dropped (its open streams fail). */
    private static final long RECEIVER_IDLE_MICROS = 120_000_000L;

    private final Negative<LedbatPort> ledbat = provides(LedbatPort.class);
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final NetAddress self;
    /** Data packets of one pump leave as one NetBurst (only on a network that unpacks them). */
    private final boolean bursts;
    private final LedbatSettings settings;
    private final Map<NetAddress, PeerPath> paths = new HashMap<>();
    private final Map<Integer, OutFlow> flowsById = new HashMap<>();
    private final Map<Integer, StreamRef> sendStreams = new HashMap<>();
    private final Map<InFlow.Key, InFlow> receivers = new HashMap<>();
    /** The holds of new data to each peer for the application's foreground traffic (while they last). */
    private final Map<NetAddress, HoldPacer> holds = new HashMap<>();
    /** The receiving flow of the last data packet: consecutive packets mostly belong to one flow. */
    private InFlow lastIn;
    private final Deliveries deliveries = new Deliveries();
    /** Where a receiving flow writes its SACK bitmap before it is copied into the ACK. */
    private final byte[] sackScratch = new byte[ReceiveWindow.MAX_SACK_BYTES];
    private int nextStreamId;
    private int nextFlowId;
    private Object tickId;
    /** Between the component's Start and Stop: ticks may run. */
    private boolean started;
    private long nextStatsMicros;
    private long stale;
    private long invalid;
    private long beyondWindow;

    /** A sending stream and the flow it is multiplexed on. */
    private record StreamRef(SendStream stream, OutFlow flow) {}

    public LedbatComponent(LedbatInit init) {
        this.self = init.self;
        this.bursts = init.bursts;
        this.settings = init.settings != null ? init.settings : LedbatSettings.from(k -> config().readValue(k).orElse(null));
        int seed = (int) (System.nanoTime() ^ self.hashCode());
        this.nextStreamId = seed & 0x3fffffff;
        this.nextFlowId = Integer.reverse(seed) & 0x3fffffff;
        handle(control, Start.class, e -> started = true); // ticks begin with the first flow
        handle(control, Stop.class, e -> {
            started = false;
            stopTicking();
        });
        handle(ledbat, OpenStream.class, this::onOpen);
        handle(ledbat, SendData.class, this::onSendData);
        handle(ledbat, CloseStream.class, this::onClose);
        handle(ledbat, ForegroundActive.class, this::onForeground);
        handle(net, DataPacket.class, this::onData);
        handle(net, AckPacket.class, this::onAck);
        handle(net, NetBurst.class, this::onBurst);
        handle(net, ProbePacket.class, this::onProbe);
        handle(net, ProbeAck.class, this::onProbeAck);
        handle(net, DatagramRefused.class, this::onRefused);
        handle(timer, Tick.class, this::onTick);
    }

    private static long nowMicros() {
        return System.nanoTime() / 1000;
    }

    /**
     * Ticks only while there is a flow to watch: a sender flow or a receiver flow that has not gone
     * idle. An idle node takes no timer events here (a 5 ms tick is 200 events a second).
     */
    private void ensureTicking() {
        if (started && tickId == null) {
            startTicking();
        }
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
            trigger(new CancelPeriodicTimeout((UUID) tickId), timer);
            tickId = null;
        }
    }

    // ---- sender side ----

    private void onOpen(OpenStream req) {
        PeerPath path = paths.computeIfAbsent(req.peer(), p -> new PeerPath(self, p, settings));
        OutFlow f = path.active;
        if (f == null) {
            int fid;
            do {
                fid = nextFlowId++ & 0x7fffffff;
            } while (flowsById.containsKey(fid));
            f = new OutFlow(self, req.peer(), new SenderFlow(fid, settings, path.base), path);
            HoldPacer held = holds.get(req.peer());
            if (held != null) {
                f.core.holdWith(held);
            }
            path.active = f;
            flowsById.put(fid, f);
            ensureTicking();
        }
        int id;
        do {
            id = nextStreamId++ & 0x7fffffff;
        } while (sendStreams.containsKey(id));
        sendStreams.put(id, new StreamRef(f.core.open(id), f));
        trigger(new StreamOpened(req.tag(), id, req.peer()), ledbat);
    }

    private void onSendData(SendData req) {
        StreamRef s = sendStreams.get(req.streamId());
        if (s == null) {
            trigger(new StreamFailed(null, req.streamId(), true, "SendData on unknown or finished stream "
                    + req.streamId()), ledbat);
            return;
        }
        if (s.stream.isClosed()) {
            // misuse by the application: report it, never crash the transport
            trigger(new StreamFailed(s.flow.peer, req.streamId(), true, "SendData after CloseStream on stream "
                    + req.streamId() + "; " + req.data().length + " bytes ignored"), ledbat);
            return;
        }
        s.flow.core.offer(s.stream, req.data());
        pump(s.flow, nowMicros());
    }

    /** Foreground traffic with the peer: hold its flow (and one opened during the hold), see HoldPacer. */
    private void onForeground(ForegroundActive a) {
        if (!settings.foregroundHold) {
            return; // foreground-hold = false
        }
        long now = nowMicros();
        HoldPacer pacer = holds.computeIfAbsent(a.peer(), p -> HoldPacer.of(settings));
        pacer.hold(now, now + a.holdMicros(), a.foregroundBytesPerSecond());
        PeerPath path = paths.get(a.peer());
        if (path != null && path.active != null) {
            path.active.core.holdWith(pacer);
        }
    }

    private void onClose(CloseStream req) {
        StreamRef s = sendStreams.get(req.streamId());
        if (s != null) {
            s.flow.core.close(s.stream);
            pump(s.flow, nowMicros());
        }
    }

    /** Sends whatever the flow's window and cwnd allow; arms the retransmission timer. */
    private void pump(OutFlow f, long now) {
        if (f.path.mtu != null) {
            probe(f, now);
        }
        SenderFlow c = f.core;
        Segment seg;
        List<DataPacket> burst = null;
        while ((seg = c.nextToSend(now)) != null) {
            boolean ackNow = c.ackNow(seg, now);
            int room = c.window().mss();
            if (seg.length() > room) {
                // cut before the path's MTU went down: sent again in parts that fit (the receiver joins them)
                int part = Math.max(1, room - LedbatCodec.PART_FIELDS);
                for (int at = 0; at < seg.length(); at += part) {
                    int len = Math.min(part, seg.length() - at);
                    burst = send(new DataPacket(f.header, c.id(), seg.seq(), now, seg.streamId(), seg.fin(),
                            ackNow && at + len == seg.length(), seg.data(), seg.offset() + at, len, at, seg.length()), burst);
                }
                continue;
            }
            burst = send(new DataPacket(f.header, c.id(), seg.seq(), now, seg.streamId(), seg.fin(), ackNow,
                    seg.data(), seg.offset(), seg.length()), burst);
        }
        if (burst != null) {
            trigger(burst.size() == 1 ? burst.get(0) : new NetBurst(f.header, burst), net);
        }
        c.armTimer(now);
    }

    /** Triggers {@code p} at once, or adds it to {@code burst} (made when null) when sending bursts. */
    private List<DataPacket> send(DataPacket p, List<DataPacket> burst) {
        if (!bursts) {
            trigger(p, net);
            return burst;
        }
        List<DataPacket> b = burst != null ? burst : new ArrayList<>();
        b.add(p);
        return b;
    }

    // ---- path MTU (RFC 8899) ----

    /** Sends the probe the path's MTU search asks for, if any (one at a time, outside the window). */
    private void probe(OutFlow f, long now) {
        int size = f.path.mtu.nextProbe(now * 1000);
        if (size > 0) {
            trigger(ProbePacket.ofSize(f.header, f.path.nextProbeId++, size - Wire.DATAGRAM_OVERHEAD), net);
        }
    }

    /** A peer's probe: answer with the size that arrived. */
    private void onProbe(ProbePacket p) {
        trigger(new ProbeAck(p.getHeader().reply(), p.probeId(), p.wireSize()), net);
    }

    private void onProbeAck(ProbeAck a) {
        PeerPath path = paths.get(a.getHeader().source());
        if (path == null || path.mtu == null) {
            stale++;
            return;
        }
        path.mtu.probeAcked(a.probeSize() + Wire.DATAGRAM_OVERHEAD, System.nanoTime());
        pathChanged(path);
    }

    /** The local stack refused a datagram to a peer as too big (EMSGSIZE): the size fails at once. */
    private void onRefused(DatagramRefused r) {
        PeerPath path = paths.get(r.peer());
        if (path != null && path.mtu != null) {
            path.mtu.refused(r.datagramBytes(), System.nanoTime());
            pathChanged(path);
        }
    }

    /** The path's confirmed MTU may have changed: the active flow cuts its next segments to it. */
    private void pathChanged(PeerPath path) {
        OutFlow f = path.active;
        if (f != null) {
            int payload = path.payload();
            int was = f.core.window().mss();
            if (payload != was) {
                f.core.window().mss(payload);
                if (payload < was) {
                    f.core.window().loseLargerThan(payload);   // they cannot arrive: again in parts, now
                }
                pump(f, nowMicros());   // a larger size may have room in the window now, or parts are due
            }
        }
    }

    /** The path's outstanding probe is lost once it waited longer than the flow's RTT allows ({@link OutFlow#expireProbe}). */
    private void expireProbe(OutFlow f, long now) {
        OutFlow.Expiry e = f.expireProbe(now);
        if (e.mtuChanged()) {
            pathChanged(f.path);
        }
        if (e.probeNow()) {
            probe(f, now);   // the next probe now, not at the next ACK (a flow backing off after timeouts waits long)
        }
    }

    private void onAck(AckPacket ack) {
        OutFlow f = flowsById.get(ack.flowId());
        if (f == null || !f.peer.equals(ack.getHeader().source())) {
            stale++;
            return;
        }
        long now = nowMicros();
        SenderFlow c = f.core;
        if (!c.onAck(now, ack.cumAck(), ack.sack(), ack.sack().length, ack.echoMicros(), ack.delayMicros(),
                ack.duplicates(), ack.outOfOrder())) {
            invalid++;
            return;
        }
        f.reportMtuOutcome();
        for (SendStream s : c.progressed()) {
            if (!s.isDone() && s.progressDue(settings.progressBytes)) {
                trigger(new SendProgress(s.id(), s.ackedBytes(), s.queuedBytes()), ledbat);
            }
        }
        for (SendStream s : c.completed()) {
            sendStreams.remove(s.id());
            trigger(new SendProgress(s.id(), s.ackedBytes(), 0), ledbat);
            trigger(new StreamClosed(f.peer, s.id(), true, s.ackedBytes()), ledbat);
        }
        if (c.isFinished()) {
            endFlow(f, now);
            return;
        }
        pump(f, now);
    }

    private void endFlow(OutFlow f, long now) {
        flowsById.remove(f.core.id());
        f.path.ended(f.core, now);
    }

    /**
     * Packets a network delivered together (GeoNetwork gathers what one read of its socket brings
     * from one peer when LEDBAT's codec is registered as bursting): each is handled as if it came alone.
     */
    private void onBurst(NetBurst b) {
        for (NetMsg m : b.parts()) {
            if (m instanceof DataPacket d) {
                onData(d);
            } else if (m instanceof AckPacket a) {
                onAck(a);
            } else if (m instanceof ProbePacket p) {
                onProbe(p);
            } else if (m instanceof ProbeAck a) {
                onProbeAck(a);
            } else {
                stale++; // not ours: another family's burst reached this port
            }
        }
    }

    // ---- receiver side ----

    private void onData(DataPacket p) {
        NetAddress peer = p.getHeader().source();
        long now = nowMicros();
        InFlow r = lastIn != null && lastIn.core.id() == p.flowId() && lastIn.peer.equals(peer) ? lastIn
                : receivers.get(new InFlow.Key(peer, p.flowId()));
        if (r == null) {
            if (p.seq() >= settings.receiveWindowPackets) {
                stale++;   // not the start of a flow: one we dropped, or garbage
                return;
            }
            r = new InFlow(self, peer, new ReceiverFlow(p.flowId(), settings.receiveWindowPackets, now));
            receivers.put(new InFlow.Key(peer, p.flowId()), r);
            ensureTicking();
        }
        lastIn = r;
        ReceiverFlow c = r.core;
        ReceiveWindow.Outcome o = p.part()
                ? c.onPart(now, p.seq(), p.streamId(), p.partOffset(), p.segmentLength(), p.payload(), p.fin())
                : c.onSegment(now, p.seq(), p.streamId(), p.payload(), p.fin());
        if (o == null) {
            return;   // a part of a segment whose other parts have not all arrived
        }
        if (o == ReceiveWindow.Outcome.BEYOND_WINDOW) {
            beyondWindow++;
        }
        if (c.ackDue(o, p.ackNow(), settings.ackEvery)) {
            deliveries.peer = peer;
            c.flush(deliveries);
            trigger(r.ack(p.timestampMicros(), now, sackScratch), net);
            c.release();
        }
    }

    /** Turns a receiving flow's deliveries into indications (one instance, reused). */
    private final class Deliveries implements ReceiverFlow.Delivery {
        NetAddress peer;

        @Override
        public void data(int stream, long offset, byte[] data) {
            trigger(new DataReceived(peer, stream, offset, data), ledbat);
        }

        @Override
        public void closed(int stream, long bytes) {
            trigger(new StreamClosed(peer, stream, false, bytes), ledbat);
        }
    }

    // ---- timer ----

    private void onTick(Tick t) {
        long now = nowMicros();
        for (Iterator<OutFlow> it = flowsById.values().iterator(); it.hasNext();) {
            OutFlow f = it.next();
            SenderFlow.Tick tick = f.core.onTick(now);
            if (tick == SenderFlow.Tick.RETRANSMIT || tick == SenderFlow.Tick.RESEND) {
                f.reportMtuOutcome();
            }
            expireProbe(f, now);
            switch (tick) {
                case RETRANSMIT, RESEND -> pump(f, now);
                case NOTHING -> {
                    if (f.core.sendDue(now)) {
                        pump(f, now); // a hold ended, or a trickle segment is due
                    }
                }
                case FAILED -> {
                    it.remove();
                    String why = (f.core.consecutiveTimeouts() - 1) + " consecutive timeouts without an acknowledgement";
                    for (SendStream s : f.core.streams()) {
                        sendStreams.remove(s.id());
                        trigger(new StreamFailed(f.peer, s.id(), true, why), ledbat);
                    }
                    f.path.ended(f.core, now);
                }
                default -> { }
            }
        }
        for (Iterator<InFlow> it = receivers.values().iterator(); it.hasNext();) {
            InFlow r = it.next();
            if (now - r.core.lastHeard() > RECEIVER_IDLE_MICROS) {
                it.remove();
                if (r == lastIn) {
                    lastIn = null;
                }
                for (int id : r.core.openStreams()) {
                    trigger(new StreamFailed(r.peer, id, false, "no packet for "
                            + RECEIVER_IDLE_MICROS / 1_000_000 + " s"), ledbat);
                }
            }
        }
        if (!holds.isEmpty()) {
            holds.values().removeIf(h -> h.forgotten(now)); // kept while a new hold would continue its age
        }
        boolean idle = flowsById.isEmpty() && receivers.isEmpty();
        if (settings.statsIntervalMillis > 0 && (now >= nextStatsMicros || idle)) {
            nextStatsMicros = now + settings.statsIntervalMillis * 1000;
            stats(now); // once more when going idle: the last figures say nothing is in flight
        }
        if (idle) {
            stopTicking();
        }
    }

    private void stats(long now) {
        for (StreamRef s : sendStreams.values()) {
            trigger(s.flow.stats(s.stream, now), ledbat);
        }
        trigger(new PeerStats(now, PeerPath.statsForgettingIdle(paths.values(), now, settings.baseHistoryMinutes * 60_000_000L)),
                ledbat);
        trigger(new TransportStats(stale, invalid, beyondWindow, sendStreams.size(), receivers.size()), ledbat);
    }

    /** The component's periodic timer. */
    static final class Tick extends Timeout {
        Tick(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }
}
