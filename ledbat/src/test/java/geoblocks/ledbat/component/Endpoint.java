package geoblocks.ledbat.component;

import geoblocks.ledbat.port.CloseStream;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.ledbat.port.OpenStream;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.ledbat.port.SendData;
import geoblocks.ledbat.port.SendProgress;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import geoblocks.ledbat.port.StreamStats;
import geoblocks.ledbat.port.TransportStats;
import geoblocks.net.NetAddress;
import java.util.HashMap;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.Start;

/**
 * Test application on the LEDBAT port. As sender: opens {@code streams} streams to the peer, sends
 * {@code bytes} of {@link Pattern} data on each (at most 16 MiB unacknowledged), closes them. As
 * receiver: checks every delivered byte against the pattern and its offset.
 */
public final class Endpoint extends ComponentDefinition {
    private static final int CHUNK = 64 * 1024;
    private static final long MAX_OUTSTANDING = 16L << 20;

    private final Positive<LedbatPort> ledbat = requires(LedbatPort.class);
    private final EndpointInit init;
    private final Map<Integer, long[]> sent = new HashMap<>(); // stream -> {sent, acked}
    private final Map<Integer, Long> expected = new HashMap<>();
    private long[] lastStats;

    public Endpoint(EndpointInit init) {
        this.init = init;
        handle(control, Start.class, e -> {
            if (init.peer != null) {
                for (int i = 0; i < init.streams; i++) {
                    trigger(new OpenStream(init.peer, i), ledbat);
                }
            }
        });
        handle(ledbat, StreamOpened.class, this::onOpened);
        handle(ledbat, SendProgress.class, this::onProgress);
        handle(ledbat, DataReceived.class, this::onData);
        handle(ledbat, StreamClosed.class, this::onClosed);
        handle(ledbat, StreamFailed.class, f -> {
            init.result.failures.incrementAndGet();
            if (init.result.firstFailure == null) {
                init.result.firstFailure = f.toString();
            }
        });
        handle(ledbat, TransportStats.class, t -> {
            init.result.stale.accumulateAndGet(t.stale(), Math::max);
            init.result.invalid.accumulateAndGet(t.invalid(), Math::max);
        });
        handle(ledbat, PeerStats.class, p -> {
            init.result.maxPeers.accumulateAndGet(p.peers().size(), Math::max);
            for (PeerStats.Peer peer : p.peers()) {
                init.result.maxStreamsPerPeer.accumulateAndGet(peer.streams(), Math::max);
                init.result.pathMtu.set(peer.pathMtuBytes());
            }
        });
        handle(ledbat, StreamStats.class, s -> {
            init.result.statsEvents.incrementAndGet();
            // every stream of a flow reports the flow's one cwnd at the same instant
            long[] last = lastStats;
            if (last != null && last[0] == s.timeMicros() && last[1] != s.cwnd()) {
                init.result.cwndMismatches.incrementAndGet();
            }
            lastStats = new long[] {s.timeMicros(), s.cwnd()};
            if (Boolean.getBoolean("ledbat.debug")) {
                System.err.println("stats " + s);
            }
        });
    }

    private void onOpened(StreamOpened o) {
        sent.put(o.streamId(), new long[2]);
        fill(o.streamId());
    }

    private void onProgress(SendProgress p) {
        long[] st = sent.get(p.streamId());
        if (st != null) {
            st[1] = p.ackedBytes();
            fill(p.streamId());
        }
    }

    private void fill(int id) {
        long[] st = sent.get(id);
        if (st[0] >= init.bytes) {
            return;
        }
        while (st[0] < init.bytes && st[0] - st[1] < MAX_OUTSTANDING) {
            int len = (int) Math.min(CHUNK, init.bytes - st[0]);
            trigger(new SendData(id, Pattern.fill(id, st[0], len)), ledbat);
            st[0] += len;
        }
        if (st[0] >= init.bytes) {
            trigger(new CloseStream(id), ledbat);
        }
    }

    private void onData(DataReceived d) {
        long exp = expected.getOrDefault(d.streamId(), 0L);
        if (d.offset() != exp) {
            init.result.outOfOrderDeliveries.incrementAndGet();
        }
        byte[] b = d.data();
        long bad = 0;
        for (int k = 0; k < b.length; k++) {
            if (b[k] != Pattern.at(d.streamId(), d.offset() + k)) {
                bad++;
            }
        }
        init.result.corruptBytes.addAndGet(bad);
        expected.put(d.streamId(), d.offset() + b.length);
        init.result.receivedBytes.merge(d.streamId(), (long) b.length, Long::sum);
    }

    private void onClosed(StreamClosed c) {
        if (c.sender()) {
            init.result.senderClosedBytes.put(c.streamId(), c.bytes());
        } else {
            init.result.receiverClosed.incrementAndGet();
        }
        init.result.done.countDown();
    }

    /** Sender if {@code peer} is set, else receiver. */
    static final class EndpointInit extends Init<Endpoint> {
        final NetAddress peer;
        final int streams;
        final long bytes;
        final TransferResult result;

        EndpointInit(NetAddress peer, int streams, long bytes, TransferResult result) {
            this.peer = peer;
            this.streams = streams;
            this.bytes = bytes;
            this.result = result;
        }
    }
}
