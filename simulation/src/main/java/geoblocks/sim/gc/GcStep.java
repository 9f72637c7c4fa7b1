package geoblocks.sim.gc;

import java.io.Serializable;
import java.util.List;

/**
 * One operation of a client's script in the block collection scenario, started {@code thinkMs} after
 * the previous one ended: a put ({@code size} bytes of content {@code key}, {@code policy}, acknowledged
 * by all replicas or the first one), a create-if-absent of a name that may exist (a refused create
 * leaves blocks no manifest names), a put the client abandons after {@code abandonAt} bytes (its
 * coordinator's upload expires, its blocks stay behind), or a move of {@code name} to {@code targets}.
 */
public record GcStep(Kind kind, String name, String policy, String ack, int size, long key, int abandonAt,
        List<String> targets, long thinkMs) implements Serializable {
    public enum Kind { PUT, CREATE, ABANDON, MOVE }

    public GcStep {
        targets = List.copyOf(targets);
    }
}
