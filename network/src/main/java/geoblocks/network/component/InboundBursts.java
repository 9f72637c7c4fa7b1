package geoblocks.network.component;

import geoblocks.net.NetBurst;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Gathers the datagrams one read of the UDP socket decodes into bursts, so a receiver pays one
 * Kompics event (and at most one wake-up of its worker thread) per read instead of one per datagram.
 * Consecutive datagrams of a family registered with {@code CodecRegistry.registerBursting} from one
 * peer (the same header: source, destination, transport) form one run; a run leaves as one {@link NetBurst} (a lone datagram as itself) when a datagram
 * from another peer arrives, when it reaches {@link #MAX_PARTS}, or at {@link #flush} (the end of the
 * read). Datagrams of other families (RTT probes) are delivered at once, ahead of the run being
 * gathered: UDP promises no order, and a probe should not wait. Used on one thread (the UDP
 * channel's event loop).
 */
final class InboundBursts {
    /** Most datagrams in one burst: bounds the time one receiver's handler runs on one event. */
    static final int MAX_PARTS = 128;

    private final Consumer<NetMsg> deliver;
    private final List<NetMsg> run = new ArrayList<>(MAX_PARTS);
    /** The header of the run's first datagram: every part has its source, destination and transport. */
    private NetHeader runHeader;

    InboundBursts(Consumer<NetMsg> deliver) {
        this.deliver = deliver;
    }

    /** One decoded datagram; {@code bursting}: its family may be delivered in bursts. */
    void add(NetMsg m, boolean bursting) {
        if (!bursting) {
            deliver.accept(m);
            return;
        }
        NetHeader h = m.getHeader();
        if (!run.isEmpty() && !h.equals(runHeader)) {
            flush();
        }
        if (run.isEmpty()) {
            runHeader = h;
        }
        run.add(m);
        if (run.size() >= MAX_PARTS) {
            flush();
        }
    }

    /** Delivers the run gathered so far (the end of a read). */
    void flush() {
        int n = run.size();
        if (n == 1) {
            deliver.accept(run.get(0));
        } else if (n > 1) {
            deliver.accept(new NetBurst(runHeader, run));
        }
        run.clear();
        runHeader = null;
    }
}
