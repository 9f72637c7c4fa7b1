package geoblocks.sim.databridge;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * What one DataBridge comparison runs (experiment 7), live ({@code bench databridge}) or simulated
 * ({@code simulate databridge}): a client in region {@code near} uploads files of each size to its
 * bucket's home region {@code home}, once directly to the home node and once through the near node
 * (ack local, then moved home), at each emulated loss percentage. Invariant: at least one size and
 * one loss, sizes in 1 B..16 GiB, losses in [0, 50) %, two different regions, a block size in
 * 64 KiB..64 MiB.
 */
public record DataBridgePlan(List<Long> sizes, List<Double> lossPercents, String near, String home, int blockSize,
        long seed) {
    public static final long MAX_SIZE = 16L << 30;

    public DataBridgePlan {
        sizes = List.copyOf(sizes);
        lossPercents = List.copyOf(lossPercents);
        if (sizes.isEmpty() || lossPercents.isEmpty()) {
            throw new IllegalArgumentException("need at least one size and one loss percentage");
        }
        for (long s : sizes) {
            if (s < 1 || s > MAX_SIZE) {
                throw new IllegalArgumentException("file size must be 1 B..16 GiB, was " + s + " B");
            }
        }
        for (double p : lossPercents) {
            if (!(p >= 0 && p < 50)) {
                throw new IllegalArgumentException("loss must be in [0, 50) %, was " + p);
            }
        }
        if (near == null || home == null || near.equals(home)) {
            throw new IllegalArgumentException("the client's region and the home region must differ, were '" + near
                    + "' and '" + home + "'");
        }
        if (blockSize < (64 << 10) || blockSize > (64 << 20)) {
            throw new IllegalArgumentException("block size must be 64 KiB..64 MiB, was " + blockSize + " B");
        }
    }

    /** The plan: 50, 100 and 300 MB, 0 and 2 % loss, seoul to dublin, 1 MiB blocks. */
    public static DataBridgePlan defaults(long seed) {
        return new DataBridgePlan(List.of(50_000_000L, 100_000_000L, 300_000_000L), List.of(0.0, 2.0), "seoul", "dublin",
                1 << 20, seed);
    }

    /**
     * Sizes as HOCON writes them: {@code 5MB} = 5,000,000 B, {@code 5MiB} or {@code 5M} = 5 x 2^20 B,
     * plain numbers in bytes.
     */
    public static List<Long> parseSizes(List<String> texts) {
        List<Long> out = new ArrayList<>();
        for (String t : texts) {
            String s = t.trim();
            if (!s.matches("[0-9]+(\\.[0-9]+)?\\s*[A-Za-z]*")) {
                throw new IllegalArgumentException("bad size '" + t + "': use e.g. 50MB, 5MiB or 1000000");
            }
            try {
                out.add(ConfigFactory.parseString("s = \"" + s + "\"").getBytes("s"));
            } catch (ConfigException e) {
                throw new IllegalArgumentException("bad size '" + t + "': use e.g. 50MB, 5MiB or 1000000");
            }
        }
        return out;
    }

    /** Loss percentages: numbers in [0, 50), an optional trailing {@code %}. */
    public static List<Double> parseLosses(List<String> texts) {
        List<Double> out = new ArrayList<>();
        for (String t : texts) {
            String s = t.trim().endsWith("%") ? t.trim().substring(0, t.trim().length() - 1) : t.trim();
            try {
                out.add(Double.parseDouble(s));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad loss percentage '" + t + "': use e.g. 0,2");
            }
        }
        return out;
    }
}
