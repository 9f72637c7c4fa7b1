package geoblocks.app.load;

import geoblocks.blockstore.core.layout.Layout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The regions a load run sends its requests to. Fixed (the config's regions), or, with
 * {@code bench load --follow-layout}, the members of the newest cluster layout the run has seen that the
 * config can address: a region added to the layout starts getting requests, one removed stops getting
 * them, as a load balancer that follows the cluster's membership would. A draining region is still a
 * member and still gets requests (it serves reads and coordinates writes whose copies go elsewhere).
 * Thread-safe: the load threads read, one refresher adopts.
 */
final class Targets implements Supplier<List<String>> {
    private final List<String> known;
    private volatile List<String> current;
    private long version = -1;

    /** Starts with {@code initial}; {@code known}: the regions the client can address (the config's). */
    Targets(List<String> initial, List<String> known) {
        if (initial.isEmpty()) {
            throw new IllegalArgumentException("no region to send requests to");
        }
        if (!known.containsAll(initial)) {
            throw new IllegalArgumentException("regions " + initial + " are not all in the config's " + known);
        }
        this.known = List.copyOf(known);
        this.current = List.copyOf(initial);
    }

    @Override
    public List<String> get() {
        return current;
    }

    /**
     * Adopts {@code layout}'s members the config knows, in the config's order, unless an equal or newer
     * layout was adopted already or no member is addressable. Returns whether the targets changed.
     */
    synchronized boolean adopt(Layout layout) {
        if (layout.version() <= version) {
            return false;
        }
        List<String> members = new ArrayList<>();
        for (String r : known) {
            if (layout.members().contains(r)) {
                members.add(r);
            }
        }
        if (members.isEmpty()) {
            return false;
        }
        version = layout.version();
        if (members.equals(current)) {
            return false;
        }
        current = List.copyOf(members);
        return true;
    }

    @Override
    public String toString() {
        return current.toString();
    }

    /** The layout version the targets follow; -1 before any was adopted. */
    synchronized long version() {
        return version;
    }
}
