package geoblocks.sim.capacity;

import java.io.Serializable;

/** One step of a placement-capacity run: upload file {@code file} at {@code site}, or download it there. */
public record CapacityOp(boolean upload, int file, String site) implements Serializable {
    public String name() {
        return "cap-" + file;
    }
}
