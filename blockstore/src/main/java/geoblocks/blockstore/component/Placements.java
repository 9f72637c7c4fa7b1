package geoblocks.blockstore.component;

import geoblocks.blockstore.core.placement.PlacementRequest;
import geoblocks.blockstore.port.PlacementPort.Place;
import geoblocks.blockstore.port.PlacementPort.Placed;
import geoblocks.blockstore.port.PlacementPort.PlacementRefused;
import geoblocks.blockstore.wire.Failure;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import se.sics.kompics.KompicsEvent;

/**
 * The file service's side of the {@link geoblocks.blockstore.port.PlacementPort}: sends a
 * {@link Place} and calls back with the answer. The placement component answers every request in
 * its handler, so nothing waits long and nothing needs a timeout.
 */
final class Placements {
    private final Consumer<KompicsEvent> send;
    private final LongSupplier ids;
    private final Map<Long, Waiter> waiting = new HashMap<>();

    private record Waiter(Consumer<List<String>> placed, Consumer<Failure> refused) {}

    Placements(Consumer<KompicsEvent> send, LongSupplier ids) {
        this.send = send;
        this.ids = ids;
    }

    /** Asks for {@code r}'s regions; {@code refused} gets why not, typed (INSUFFICIENT_STORAGE when room kept a region out). */
    void place(PlacementRequest r, Consumer<List<String>> placed, Consumer<Failure> refused) {
        long req = ids.getAsLong();
        waiting.put(req, new Waiter(placed, refused));
        send.accept(new Place(req, r));
    }

    void onPlaced(Placed p) {
        Waiter w = waiting.remove(p.req());
        if (w != null) {
            w.placed().accept(p.regions());
        }
    }

    void onRefused(PlacementRefused r) {
        Waiter w = waiting.remove(r.req());
        if (w != null) {
            w.refused().accept(new Failure(r.code(), r.reason()));
        }
    }
}
