package geoblocks.ledbat.core;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.LongPredicate;

/**
 * A {@link SenderFlow} and a {@link ReceiverFlow} joined by a pure, deterministic event loop with a
 * fake clock (µs): every data segment reaches the receiver {@code oneWayMicros} after it was sent
 * (unless {@code drop} says so for its transmission index), acknowledgements come back after the
 * same delay and the sender's timer is ticked every millisecond. What the receiver delivers is
 * collected per stream; the sender's finished streams are recorded. No processes, no threads.
 */
final class FlowPair {
    final LedbatSettings settings;
    final SenderFlow sender;
    final ReceiverFlow receiver;
    final long oneWayMicros;
    final Map<Integer, ByteArrayOutputStream> received = new HashMap<>();
    final Map<Integer, Long> receiverClosed = new HashMap<>();
    final List<Integer> senderDone = new ArrayList<>();
    final List<Segment> sent = new ArrayList<>();
    long now;
    long transmissions;
    long extraDelayMicros;
    LongPredicate drop = tx -> false;
    Random reorder;
    /** With {@link #reorder}: each data segment is held a uniform 0..this many µs more (0, 1 or 2 ms before). */
    int reorderSpreadMicros = 2000;
    /** With {@link #reorder}: ACKs are held the same way (as the delay line does in both directions). */
    boolean reorderAcks;

    private long order;
    private final PriorityQueue<long[]> events = new PriorityQueue<>((a, b) -> a[0] != b[0]
            ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    private final Map<Long, Object> payloads = new HashMap<>();

    private final ReceiverFlow.Delivery delivery = new ReceiverFlow.Delivery() {
        @Override
        public void data(int stream, long offset, byte[] data) {
            ByteArrayOutputStream b = received.computeIfAbsent(stream, k -> new ByteArrayOutputStream());
            if (offset != b.size()) {
                throw new AssertionError("stream " + stream + " delivered at offset " + offset + ", expected " + b.size());
            }
            b.writeBytes(data);
        }

        @Override
        public void closed(int stream, long bytes) {
            if (receiverClosed.put(stream, bytes) != null) {
                throw new AssertionError("stream " + stream + " closed twice");
            }
        }
    };

    FlowPair(LedbatSettings settings, long oneWayMicros) {
        this.settings = settings;
        this.oneWayMicros = oneWayMicros;
        this.sender = new SenderFlow(7, settings, new BaseDelayHistory(settings.baseHistoryMinutes));
        this.receiver = new ReceiverFlow(7, settings.receiveWindowPackets, 0);
    }

    /** Sends what the window allows now. */
    void pump() {
        Segment s;
        while ((s = sender.nextToSend(now)) != null) {
            sent.add(s);
            long tx = transmissions++;
            boolean ackNow = sender.ackNow(s, now);
            if (drop.test(tx)) {
                continue;
            }
            byte[] payload = Arrays.copyOfRange(s.data(), s.offset(), s.offset() + s.length());
            long jitter = reorder == null ? 0 : reorder.nextInt(reorderSpreadMicros + 1);
            schedule(now + oneWayMicros + extraDelayMicros + jitter,
                    new Object[] {s.seq(), s.streamId(), payload, s.fin(), ackNow, now});
        }
        sender.armTimer(now);
    }

    private void schedule(long at, Object what) {
        long key = order++;
        payloads.put(key, what);
        events.add(new long[] {at, key});
    }

    /** Runs the loop until {@code until} (µs) or until nothing is left to happen. */
    void runUntil(long until) {
        long nextTick = now + 1000;
        while (now < until) {
            long[] e = events.peek();
            if (e == null && sender.isFinished()) {
                return;
            }
            if (e != null && e[0] <= nextTick) {
                events.poll();
                now = Math.max(now, e[0]);
                handle(payloads.remove(e[1]));
            } else {
                now = nextTick;
                nextTick += 1000;
                SenderFlow.Tick t = sender.onTick(now);
                if (t == SenderFlow.Tick.RETRANSMIT || t == SenderFlow.Tick.RESEND) {
                    pump();
                }
            }
        }
    }

    private void handle(Object o) {
        Object[] a = (Object[]) o;
        if (a.length == 6) {   // data at the receiver
            ReceiveWindow.Outcome out = receiver.onSegment(now, (long) a[0], (int) a[1], (byte[]) a[2], (boolean) a[3]);
            if (receiver.ackDue(out, (boolean) a[4], settings.ackEvery)) {
                receiver.flush(delivery);
                byte[] sack = new byte[ReceiveWindow.MAX_SACK_BYTES];
                int len = receiver.writeSack(sack);
                long sentAt = (long) a[5];
                long ackJitter = reorder == null || !reorderAcks ? 0 : reorder.nextInt(reorderSpreadMicros + 1);
                schedule(now + oneWayMicros + ackJitter, new Object[] {receiver.next(), Arrays.copyOf(sack, len), sentAt,
                    now - sentAt});
                receiver.release();
            }
        } else {               // an ACK at the sender
            byte[] sack = (byte[]) a[1];
            if (!sender.onAck(now, (long) a[0], sack, sack.length, (long) a[2], (long) a[3], 0, 0)) {
                throw new AssertionError("valid ACK refused");
            }
            for (SendStream s : sender.completed()) {
                senderDone.add(s.id());
            }
            pump();
        }
    }
}
