package geoblocks.sim.reads;

import java.io.Serializable;
import java.util.List;

/**
 * One slot's script, shared by its client machines: the test file sizes and how often each is read,
 * how the reader reads ({@code read}, {@code rank}: {@code core.read.ReadOptions}; empty: the plain
 * nearest-first download), the noise file's size and the noise readers' mean think time. File names
 * and contents derive from the slot and the seed.
 */
public record ReadsScript(int slot, long seed, List<Integer> sizes, int readsPerSize, long gapMs, String read,
        String rank, String testPolicy, int noiseBytes, String noisePolicy, long noiseThinkMs, int blockBytes)
        implements Serializable {
    public ReadsScript {
        sizes = List.copyOf(sizes);
    }

    String testName(int size) {
        return "t" + slot + "-" + size;
    }

    long testKey(int size) {
        return seed * 7919 + size;
    }

    String noiseName() {
        return "noise" + slot;
    }

    long noiseKey() {
        return seed * 7919 - 1;
    }
}
