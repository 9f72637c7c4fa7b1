package geoblocks.sim.consistency;

import java.io.Serializable;

/**
 * One operation of a simulated client's script, started {@code thinkMs} after the previous one
 * ended: a put (a new version of {@code name}: {@code size} bytes of content {@code key} with
 * {@code policy}), a create-if-absent, a delete, or a read of the name's versions.
 */
public record Step(Kind kind, String name, String policy, int size, long key, long thinkMs) implements Serializable {
    public enum Kind { PUT, CREATE, DELETE, READ }
}
