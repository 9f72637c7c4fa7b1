package geoblocks.ledbat.component;

import geoblocks.ledbat.wire.DataPacket;
import geoblocks.ledbat.wire.ProbePacket;
import geoblocks.net.DatagramRefused;
import geoblocks.net.NetBurst;
import geoblocks.net.NetMsg;
import geoblocks.net.Wire;
import java.util.List;
import java.util.Random;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;
import se.sics.kompics.Port;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Msg;
import se.sics.kompics.network.Network;

/**
 * Test shim between a LEDBAT component and the network: drops, duplicates and reorders messages in
 * both directions with the given probabilities (seeded). With a path MTU, a datagram sent down whose
 * UDP payload (as GeoNetwork would send it) exceeds it is refused as the kernel does (a
 * DatagramRefused handed up) or silently dropped (a black hole). Reordering holds one message back until the
 * next one has passed; upward, the two then leave together in one NetBurst.
 */
public final class LossyShim extends ComponentDefinition {
    private final Negative<Network> up = provides(Network.class);
    private final Positive<Network> down = requires(Network.class);
    private final Random random;
    private final double loss;
    private final double dup;
    private final double reorder;
    private Msg<?, ?> heldDown;
    private Msg<?, ?> heldUp;
    private final int pathMtu;
    private final boolean refuse;
    /** Messages sent down before the path MTU applies (the path narrows mid-transfer). */
    private final long narrowAfter;
    private long sentDown;
    /** Segments sent in parts after the path narrowed. */
    static volatile long parts;
    /** Datagrams above the path MTU: DATA packets and probes. */
    static volatile long oversizeData;
    static volatile long oversizeProbes;
    static volatile long dropped;
    static volatile long duplicated;
    static volatile long reordered;
    /** NetBursts the LEDBAT side handed down (unpacked into their datagrams here). */
    static volatile long bursts;
    /** Held-back messages handed up together with the next one as a NetBurst (the LEDBAT side unpacks them). */
    static volatile long burstsUp;

    public LossyShim(ShimInit init) {
        random = new Random(init.seed);
        loss = init.loss;
        dup = init.dup;
        reorder = init.reorder;
        pathMtu = init.pathMtu;
        refuse = init.refuse;
        narrowAfter = init.narrowAfter;
        handle(up, Msg.class, m -> {
            if (m instanceof NetBurst b) {
                bursts++;
                for (NetMsg part : b.parts()) {
                    if (fits(part)) {
                        heldDown = pass(part, down, heldDown);
                    }
                }
            } else if (fits(m)) {
                heldDown = pass(m, down, heldDown);
            }
        });
        handle(down, Msg.class, m -> heldUp = pass(m, up, heldUp));
    }

    /** Whether {@code m} fits the path MTU; if not, it is counted and refused or dropped. */
    private boolean fits(Msg<?, ?> m) {
        if (m instanceof DataPacket d && d.part()) {
            parts++;
        }
        if (pathMtu == 0 || !(m instanceof NetMsg n) || sentDown++ < narrowAfter) {
            return true;
        }
        int size = n.wireSize() + Wire.DATAGRAM_OVERHEAD;
        if (size <= pathMtu) {
            return true;
        }
        if (n instanceof ProbePacket) {
            oversizeProbes++;
        } else {
            oversizeData++;
        }
        if (refuse) {
            trigger(new DatagramRefused(n.getHeader(), size), up);
        }
        return false;
    }

    private Msg<?, ?> pass(Msg<?, ?> m, Port<Network> port, Msg<?, ?> held) {
        double r = random.nextDouble();
        if (r < loss) {
            dropped++;
            return held;
        }
        if (held == null && r < loss + reorder) {
            reordered++;
            return m;
        }
        if (held != null && port == up && m instanceof NetMsg a && held instanceof NetMsg h
                && a.getHeader().equals(h.getHeader())) {
            // upward, a held message leaves with the next in one NetBurst, as GeoNetwork delivers
            // what one read of its socket brought from one peer
            burstsUp++;
            trigger(new NetBurst(a.getHeader(), List.of(a, h)), port);
            held = null;
        } else {
            trigger(m, port);
        }
        if (r > 1 - dup) {
            duplicated++;
            trigger(m, port);
        }
        if (held != null) {
            trigger(held, port);
        }
        return null;
    }

    /** Seed and probabilities of loss, duplication and reordering. */
    public static final class ShimInit extends Init<LossyShim> {
        final long seed;
        final double loss;
        final double dup;
        final double reorder;
        final int pathMtu;
        final boolean refuse;
        final long narrowAfter;

        public ShimInit(long seed, double loss, double dup, double reorder) {
            this(seed, loss, dup, reorder, 0, false);
        }

        /** The path MTU applies only after {@code narrowAfter} messages went down: the path narrows mid-transfer. */
        public ShimInit(long seed, int pathMtu, boolean refuse, long narrowAfter) {
            this.seed = seed;
            this.loss = 0;
            this.dup = 0;
            this.reorder = 0;
            this.pathMtu = pathMtu;
            this.refuse = refuse;
            this.narrowAfter = narrowAfter;
        }

        /** With a path MTU in UDP payload bytes (0: none) above which datagrams are refused or dropped. */
        public ShimInit(long seed, double loss, double dup, double reorder, int pathMtu, boolean refuse) {
            this.seed = seed;
            this.loss = loss;
            this.dup = dup;
            this.reorder = reorder;
            this.pathMtu = pathMtu;
            this.refuse = refuse;
            this.narrowAfter = 0;
        }
    }
}
