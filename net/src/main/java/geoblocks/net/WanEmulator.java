package geoblocks.net;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Msg;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * Emulated WAN on one machine: sits between a node and the real network and holds every outgoing
 * message for the one-way latency (RTT / 2) between the sender's and the receiver's regions.
 * Messages to the same destination leave in the order they were sent (a FIFO per destination).
 * Incoming messages pass straight up. Destinations outside the cluster (clients) get no delay.
 * Accuracy is the timer's: a message leaves within about a millisecond of its due time.
 */
public final class WanEmulator extends ComponentDefinition {
    private final Negative<Network> up = provides(Network.class);
    private final Positive<Network> down = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final ToLongFunction<NetAddress> delayNanosTo;
    private final Map<NetAddress, ArrayDeque<Held>> queues = new HashMap<>();

    private record Held(long releaseNanos, Msg<?, ?> msg) {}

    public WanEmulator(WanInit init) {
        ClusterConfig cluster = init.cluster;
        String self = init.selfRegion;
        delayNanosTo = dst -> cluster.regionOf(dst)
                .map(r -> (long) (cluster.rtt().rttMs(self, r) * 1_000_000L / 2))
                .orElse(0L);
        handle(up, Msg.class, this::onSend);
        handle(down, Msg.class, this::onReceive);
        handle(timer, Release.class, this::onRelease);
    }

    private void onSend(Msg<?, ?> msg) {
        NetAddress dst = (NetAddress) msg.getHeader().getDestination();
        long delay = delayNanosTo.applyAsLong(dst);
        ArrayDeque<Held> q = queues.computeIfAbsent(dst, k -> new ArrayDeque<>());
        if (delay == 0 && q.isEmpty()) {
            trigger(msg, down);
            return;
        }
        q.add(new Held(System.nanoTime() + delay, msg));
        if (q.size() == 1) {
            schedule(dst, delay);
        }
    }

    private void onReceive(Msg<?, ?> msg) {
        trigger(msg, up);
    }

    private void onRelease(Release r) {
        ArrayDeque<Held> q = queues.get(r.destination);
        long now = System.nanoTime();
        while (!q.isEmpty() && q.peek().releaseNanos <= now + 1_000_000) {
            trigger(q.poll().msg, down);
        }
        if (!q.isEmpty()) {
            schedule(r.destination, q.peek().releaseNanos - now);
        }
    }

    private void schedule(NetAddress dst, long nanos) {
        ScheduleTimeout st = new ScheduleTimeout(Math.max(0, nanos / 1_000_000));
        st.setTimeoutEvent(new Release(st, dst));
        trigger(st, timer);
    }

    static final class Release extends Timeout {
        final NetAddress destination;

        Release(ScheduleTimeout st, NetAddress destination) {
            super(st);
            this.destination = destination;
        }
    }

    /** The cluster (regions, RTT matrix) and the region this node is in. */
    public static final class WanInit extends Init<WanEmulator> {
        final ClusterConfig cluster;
        final String selfRegion;

        public WanInit(ClusterConfig cluster, String selfRegion) {
            cluster.address(selfRegion);
            this.cluster = cluster;
            this.selfRegion = selfRegion;
        }
    }
}
