package geoblocks.blockstore.core.liveness;

import java.util.HashMap;
import java.util.Map;

/**
 * Which peers the RTT monitor pings at a probe round. Every peer must hear from this node, and this
 * node from every peer, about once a round, or the failure detector would see silence; but a ping
 * that the peer sent on its own already does that for both sides (this node hears the ping, the peer
 * hears the answer). So at a round this node pings a peer unless, since its previous round, the peer
 * sent it something on its own: another proof of life the file service reports (file-protocol
 * messages, LEDBAT data and acknowledgements), or a ping. Probe answers to this node's own pings do
 * not count: they are not the peer's initiative, and counting them would let both sides stop.
 *
 * <p>When both sides pinged in the same round, each sees the other's ping at its next round; were
 * both to skip then, neither would be heard for two rounds. So after a round in which this node
 * pinged too, a ping from the peer lets only the node with the larger region id skip; the other keeps
 * pinging. Between two idle nodes one side thus ends up pinging each round and the other only
 * answers: per round and pair one ping and one answer instead of two of each, and each side still
 * hears the other once a round, so the detector sees the same gaps. A peer not up (not yet measured,
 * or down) is pinged every round, and every peer at least every {@link #REFRESH_ROUNDS} rounds, so this
 * node's own RTT estimate of it keeps getting samples. When both sides exchange other messages
 * (transfers), neither pings but for those refreshes. Time is passed in (nanoseconds); pure.
 */
public final class ProbePlan {
    /** A peer is pinged at least every this many rounds, whatever it sends: fresh RTT samples. */
    public static final int REFRESH_ROUNDS = 10;

    private static final class Peer {
        boolean pinged;
        long lastPing;
        /** Pinged at the previous round. */
        boolean pingedLastRound;
        boolean sawPing;
        boolean sawOther;
    }

    private final String self;
    private final long refreshNanos;
    private final Map<String, Peer> peers = new HashMap<>();

    /** {@code self}: this node's region; {@code intervalNanos}: the probe interval (the time between rounds). */
    public ProbePlan(String self, long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("probe interval must be > 0 ns, was " + intervalNanos);
        }
        this.self = self;
        this.refreshNanos = REFRESH_ROUNDS * intervalNanos;
    }

    private Peer peer(String region) {
        return peers.computeIfAbsent(region, r -> new Peer());
    }

    /** {@code region} pinged this node. */
    public void pinged(String region) {
        peer(region).sawPing = true;
    }

    /** {@code region} sent this node another message on its own (not a probe, not an answer to one). */
    public void heard(String region) {
        peer(region).sawOther = true;
    }

    /**
     * At the round at {@code nowNanos}: whether to ping {@code region}, which the monitor has
     * {@code up} or not; a yes is recorded as a ping sent now. Each call starts a new round for that
     * peer (what it sent before no longer counts at the next).
     */
    public boolean shouldPing(String region, boolean up, long nowNanos) {
        Peer p = peer(region);
        boolean skip = p.sawOther || p.sawPing && !(p.pingedLastRound && self.compareTo(region) < 0);
        p.sawOther = false;
        p.sawPing = false;
        boolean ping = !up || !skip || !p.pinged || nowNanos - p.lastPing >= refreshNanos;
        p.pingedLastRound = ping;
        if (ping) {
            p.pinged = true;
            p.lastPing = nowNanos;
        }
        return ping;
    }
}
