package geoblocks.blockstore.component;

import geoblocks.blockstore.core.ForegroundHold;
import geoblocks.blockstore.core.liveness.HeardReports;
import geoblocks.blockstore.port.RttPort;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.ledbat.port.ForegroundActive;
import geoblocks.net.NetAddress;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import se.sics.kompics.KompicsEvent;

/**
 * What a component's traffic tells the node's other components about a peer (glue; the rules are in
 * {@link HeardReports} and {@link ForegroundHold}, one of each for the whole node, {@link NodeWide}): that the
 * peer is alive (every message from it is proof of life for the failure detector, a few times a second at most,
 * whichever component took it), and that foreground data moves with it (so LEDBAT holds back the background to
 * it, at a rate over all the node's foreground bytes with it). Each component has its own, which triggers on
 * that component's ports.
 */
final class PeerSignals {
    private final String region;
    private final Function<NetAddress, Optional<String>> regionOf;
    private final LongSupplier clock;
    private final HeardReports heardReports;
    private final ForegroundHold foregroundHold;
    private final Consumer<KompicsEvent> toRtt;
    private final Consumer<KompicsEvent> toLedbat;

    /**
     * Signals of this node ({@code region}), which learns a member's region by {@code regionOf}, over the
     * node's {@code shared} rules; {@code toRtt} and {@code toLedbat} trigger on the component's ports.
     */
    PeerSignals(String region, Function<NetAddress, Optional<String>> regionOf, LongSupplier clock, NodeWide shared,
            Consumer<KompicsEvent> toRtt, Consumer<KompicsEvent> toLedbat) {
        this.region = region;
        this.regionOf = regionOf;
        this.clock = clock;
        this.heardReports = shared.heard();
        this.foregroundHold = shared.foreground();
        this.toRtt = toRtt;
        this.toLedbat = toLedbat;
    }

    /** Something arrived from {@code from}: the failure detector hears of it when it is a peer node. */
    void heard(NetAddress from) {
        Optional<String> peer = regionOf.apply(from);
        long now = clock.getAsLong();
        if (peer.isPresent() && !peer.get().equals(region) && heardReports.shouldReport(peer.get(), now)) {
            toRtt.accept(new RttPort.Heard(peer.get(), now));
        }
    }

    /** When {@code op} is foreground data with {@code peer}: its LEDBAT background holds back. */
    void foreground(NetAddress peer, FileOp op) {
        long bytes = ForegroundHold.foregroundBytes(op);
        if (bytes < 0) {
            return;
        }
        Optional<String> other = regionOf.apply(peer);
        long rate = other.isEmpty() || other.get().equals(region) ? -1
                : foregroundHold.onForeground(other.get(), clock.getAsLong(), bytes);
        if (rate >= 0) {
            toLedbat.accept(new ForegroundActive(peer, foregroundHold.holdNanos() / 1000, rate));
        }
    }
}
