package geoblocks.example;

import geoblocks.blockstore.core.placement.PlacementInput;
import geoblocks.blockstore.core.placement.PlacementPolicy;
import java.util.List;

/** A custom policy loaded by class name (geoblocks.placement.classes), not by ServiceLoader: one copy at dublin. */
public final class PinnedToDublin implements PlacementPolicy {
    @Override
    public String name() {
        return "pinned-dublin";
    }

    @Override
    public int copies() {
        return 1;
    }

    @Override
    public List<String> place(PlacementInput in) {
        return List.of("dublin"); // not checked here: the placement check refuses it when dublin is down or full
    }
}
