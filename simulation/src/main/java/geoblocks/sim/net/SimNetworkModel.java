package geoblocks.sim.net;

import geoblocks.net.NetMsg;
import se.sics.kompics.network.Address;
import se.sics.kompics.network.Msg;
import se.sics.kompics.simulator.network.NetworkModel;

/**
 * The simulator's network model: thin glue that asks a {@link PathModel} when a message arrives.
 * Runs inside the simulator, where {@code System.currentTimeMillis()} is the simulated clock. The
 * clock ticks in whole milliseconds, so arrival is rounded up to the next millisecond; the path
 * model itself keeps nanoseconds, so no rounding error accumulates along a queue.
 */
public final class SimNetworkModel implements NetworkModel {
    /** Size assumed for messages that are not geoblocks {@link NetMsg}s. */
    public static final int FOREIGN_MESSAGE_BYTES = 100;

    private final PathModel path;

    public SimNetworkModel(PathModel path) {
        this.path = path;
    }

    public PathModel path() {
        return path;
    }

    /** Flow key of a message: its (source, destination) pair of addresses. */
    public record FlowKey(Address source, Address destination) {}

    @Override
    public long getLatencyMs(Msg<?, ?> msg) {
        long nowNs = System.currentTimeMillis() * 1_000_000L;
        int size = (msg instanceof NetMsg m ? m.wireSize() : FOREIGN_MESSAGE_BYTES)
                + path.spec().overheadBytes(msg.getHeader().getProtocol());
        Address src = msg.getHeader().getSource();
        Address dst = msg.getHeader().getDestination();
        long arrival = path.arrivalNs(nowNs, src.getIp(), dst.getIp(), new FlowKey(src, dst), size);
        if (arrival < 0) {
            return -1;
        }
        return (arrival - nowNs + 999_999) / 1_000_000;
    }
}
