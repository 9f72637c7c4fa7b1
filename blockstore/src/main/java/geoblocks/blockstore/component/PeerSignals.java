package geoblocks.blockstore.component;

import geoblocks.blockstore.core.ForegroundHold;
import geoblocks.blockstore.core.liveness.HeardReports;
import geoblocks.blockstore.port.RttPort;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.ledbat.port.ForegroundActive;
import geoblocks.net.NetAddress;
import java.util.Optional;
import java.util.function.Consumer;
import se.sics.kompics.KompicsEvent;

/**
 * What the file service's traffic tells the node's other components about a peer (glue; the rules are in
 * {@link HeardReports} and {@link ForegroundHold}): that the peer is alive (every message from it is proof
 * of life for the failure detector, a few times a second at most), and that foreground data moves with it
 * (so LEDBAT holds back the background to it).
 */
final class PeerSignals {
    private final NodeContext node;
    private final Consumer<KompicsEvent> toRtt;
    private final Consumer<KompicsEvent> toLedbat;
    private final HeardReports heardReports = new HeardReports(HeardReports.DEFAULT_SPACING_NANOS);
    private final ForegroundHold foregroundHold = new ForegroundHold(ForegroundHold.DEFAULT_HOLD_NANOS);

    PeerSignals(NodeContext node, Consumer<KompicsEvent> toRtt, Consumer<KompicsEvent> toLedbat) {
        this.node = node;
        this.toRtt = toRtt;
        this.toLedbat = toLedbat;
    }

    /** Something arrived from {@code from}: the failure detector hears of it when it is a peer node. */
    void heard(NetAddress from) {
        Optional<String> peer = node.regionOf(from);
        long now = node.now();
        if (peer.isPresent() && !peer.get().equals(node.region()) && heardReports.shouldReport(peer.get(), now)) {
            toRtt.accept(new RttPort.Heard(peer.get(), now));
        }
    }

    /** When {@code op} is foreground data with {@code peer}: its LEDBAT background holds back. */
    void foreground(NetAddress peer, FileOp op) {
        long bytes = ForegroundHold.foregroundBytes(op);
        if (bytes < 0) {
            return;
        }
        Optional<String> region = node.regionOf(peer);
        long rate = region.isEmpty() || region.get().equals(node.region()) ? -1
                : foregroundHold.onForeground(region.get(), node.now(), bytes);
        if (rate >= 0) {
            toLedbat.accept(new ForegroundActive(peer, foregroundHold.holdNanos() / 1000, rate));
        }
    }
}
