package geoblocks.sim.compression;

import java.io.Serializable;

/** One transfer pair of the compression scenario: a file of {@code size} bytes of one content kind, put and got with one mode. */
public record CompressionJob(int slot, boolean text, long size, String mode, long key) implements Serializable {
    /** The file's name, unique in the simulation. */
    public String name() {
        return "c" + slot + "-" + (text ? "text" : "random") + "-" + size + "-" + mode;
    }

    /** The key of its records: slot, content, size, mode. */
    public String recordKey() {
        return slot + "," + (text ? "text" : "random") + "," + size + "," + mode;
    }
}
