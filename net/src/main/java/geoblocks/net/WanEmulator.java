package geoblocks.net;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Msg;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * Emulated WAN on one machine: sits between a node and the real network and holds every outgoing
 * message for the one-way latency (RTT / 2) between the sender's and the receiver's regions, and
 * with the cluster's {@code wan-loss-percent} above 0 drops datagrams and paces TCP messages as
 * {@link WanPath} decides (one path per destination and transport, drops drawn from the cluster's
 * {@code wan-seed} and this host's region; each datagram of a {@link NetBurst} on its own). Messages to the same destination on the same transport
 * leave in the order they were sent. Destinations outside the cluster (clients) get no delay, so a
 * client placed in a region ({@link WanInit#client}) runs its own emulator that also holds what it
 * receives from each node for the way back. Otherwise incoming messages pass straight up.
 * Accuracy is the timer's: a message leaves within about a millisecond of its due time.
 */
public final class WanEmulator extends ComponentDefinition {
    private final Negative<Network> up = provides(Network.class);
    private final Positive<Network> down = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final ClusterConfig cluster;
    private final String self;
    private final boolean holdIncoming;
    private final Random random;
    private final Map<Key, Line> lines = new HashMap<>();

    /** One direction toward (or from) one peer on one transport. */
    private record Key(NetAddress peer, Transport transport, boolean incoming) {}

    private record Held(long releaseNanos, Msg<?, ?> msg) {}

    private static final class Line {
        final WanPath path;
        final ArrayDeque<Held> queue = new ArrayDeque<>();

        Line(WanPath path) {
            this.path = path;
        }
    }

    public WanEmulator(WanInit init) {
        cluster = init.cluster;
        self = init.selfRegion;
        holdIncoming = init.holdIncoming;
        random = new Random(cluster.wanSeed() * 31 + self.hashCode() + (holdIncoming ? 7 : 0)); // a client draws apart from its node
        handle(up, Msg.class, m -> pass(m, (NetAddress) m.getHeader().getDestination(), false));
        handle(down, Msg.class, this::onReceive);
        handle(timer, Release.class, this::onRelease);
    }

    private void onReceive(Msg<?, ?> msg) {
        if (holdIncoming) {
            pass(msg, (NetAddress) msg.getHeader().getSource(), true);
        } else {
            trigger(msg, up);
        }
    }

    /** The line toward (or from) a node of the cluster; null for a host outside it (a client): no delay, no loss. */
    private Line line(Key k) {
        Line l = lines.get(k);
        if (l == null) {
            String region = cluster.regionOf(k.peer).orElse(null);
            if (region == null) {
                return null;
            }
            l = new Line(new WanPath(cluster.rtt().rttMs(self, region), cluster.wanLossRate(), reliable(k.transport),
                    random));
            lines.put(k, l);
        }
        return l;
    }

    /** Transports whose lost segments the kernel (or UDT) retransmits: paced, never dropped. */
    static boolean reliable(Transport t) {
        return t == Transport.TCP || t == Transport.UDT;
    }

    private void pass(Msg<?, ?> msg, NetAddress peer, boolean incoming) {
        Key k = new Key(peer, msg.getHeader().getProtocol(), incoming);
        Line line = line(k);
        if (line == null || (line.path.transparent() && line.queue.isEmpty())) {
            deliver(msg, incoming);
            return;
        }
        long now = System.nanoTime();
        long release = -1;
        if (msg instanceof NetBurst b && !reliable(k.transport)) {
            List<NetMsg> kept = new ArrayList<>(b.parts().size());
            for (NetMsg part : b.parts()) { // each datagram of a burst is lost on its own
                long r = line.path.releaseNanos(now, part.wireSize());
                if (r >= 0) {
                    kept.add(part);
                    release = Math.max(release, r);
                }
            }
            if (!kept.isEmpty() && kept.size() < b.parts().size()) {
                msg = new NetBurst(b.getHeader(), kept);
            }
        } else {
            release = line.path.releaseNanos(now, msg instanceof NetMsg n ? n.wireSize() : 0);
        }
        if (release < 0) {
            return; // lost on the emulated WAN
        }
        line.queue.add(new Held(release, msg));
        if (line.queue.size() == 1) {
            schedule(k, release - now);
        }
    }

    private void deliver(Msg<?, ?> msg, boolean incoming) {
        trigger(msg, incoming ? up : down);
    }

    private void onRelease(Release r) {
        ArrayDeque<Held> q = lines.get(r.key).queue;
        long now = System.nanoTime();
        while (!q.isEmpty() && q.peek().releaseNanos <= now + 1_000_000) {
            deliver(q.poll().msg, r.key.incoming);
        }
        if (!q.isEmpty()) {
            schedule(r.key, q.peek().releaseNanos - now);
        }
    }

    private void schedule(Key k, long nanos) {
        ScheduleTimeout st = new ScheduleTimeout(Math.max(0, nanos / 1_000_000));
        st.setTimeoutEvent(new Release(st, k));
        trigger(st, timer);
    }

    static final class Release extends Timeout {
        final Key key;

        Release(ScheduleTimeout st, Key key) {
            super(st);
            this.key = key;
        }
    }

    /** The cluster (regions, RTT matrix, loss) and the region this host is in. */
    public static final class WanInit extends Init<WanEmulator> {
        final ClusterConfig cluster;
        final String selfRegion;
        final boolean holdIncoming;

        /** The emulator of the node of {@code selfRegion}: holds what it sends. */
        public WanInit(ClusterConfig cluster, String selfRegion) {
            this(cluster, selfRegion, false);
        }

        private WanInit(ClusterConfig cluster, String selfRegion, boolean holdIncoming) {
            cluster.address(selfRegion);
            this.cluster = cluster;
            this.selfRegion = selfRegion;
            this.holdIncoming = holdIncoming;
        }

        /**
         * The emulator of a client placed in {@code region} (not a node of the cluster): holds what it
         * sends to each node and what it receives from each node, since nodes do not hold what they
         * send to clients.
         */
        public static WanInit client(ClusterConfig cluster, String region) {
            return new WanInit(cluster, region, true);
        }
    }
}
