package geoblocks.app.bench;

import java.util.List;

/**
 * What {@code bench storage} runs, validated: for each target, block size and stream count, the
 * four {@link Workload}s in order, each stream doing {@link #ops(int)} operations on its own
 * slots. {@code ops} is {@code bytesPerStream / blockSize}, capped at {@code maxOps}. The headline
 * (the JSON's top-level figures) is the block store at {@link #HEADLINE_BLOCK} with one stream
 * when those were run, else the first block size and stream count.
 */
public record StoragePlan(List<String> targets, List<Integer> blockSizes, List<Integer> streams, long bytesPerStream,
        int maxOps, long seed) {
    /** The node's default block size: the headline's. */
    public static final int HEADLINE_BLOCK = 1 << 20;
    static final int MIN_BLOCK = 512;
    static final int MAX_BLOCK = 64 << 20;
    static final int MAX_STREAMS = 64;

    public StoragePlan {
        targets = List.copyOf(targets);
        blockSizes = List.copyOf(blockSizes);
        streams = List.copyOf(streams);
        require(!targets.isEmpty(), "--targets must name at least one of blockstore, raw, s3");
        for (String t : targets) {
            require(t.equals("blockstore") || t.equals("raw") || t.equals("s3"),
                    "--targets must be among blockstore, raw and s3, got '" + t + "'");
        }
        require(!blockSizes.isEmpty(), "--block-sizes must not be empty");
        for (int b : blockSizes) {
            require(b >= MIN_BLOCK && b <= MAX_BLOCK, "block size " + b + " is out of range 512 B..64 MiB");
            require(bytesPerStream >= b, "--size " + bytesPerStream + " is smaller than block size " + b);
        }
        require(!streams.isEmpty(), "--streams must not be empty");
        for (int s : streams) {
            require(s >= 1 && s <= MAX_STREAMS, "streams must be in 1.." + MAX_STREAMS + ", was " + s);
        }
        require(maxOps >= 1, "--max-ops must be >= 1, was " + maxOps);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Operations each stream does per workload at {@code blockSize}. */
    public int ops(int blockSize) {
        return (int) Math.min(maxOps, bytesPerStream / blockSize);
    }

    public int headlineBlock() {
        return blockSizes.contains(HEADLINE_BLOCK) ? HEADLINE_BLOCK : blockSizes.get(0);
    }

    public int headlineStreams() {
        return streams.contains(1) ? 1 : streams.get(0);
    }

    public String headlineTarget() {
        return targets.contains("blockstore") ? "blockstore" : targets.get(0);
    }
}
