package geoblocks.blockstore.core;

import com.typesafe.config.Config;
import geoblocks.blockstore.core.read.ReadOptions;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Tunables of a node, read from {@code geoblocks.node} (see blockstore's reference.conf) and
 * validated here, once. Build other settings by name ({@link #builder()}, {@link #toBuilder()}), not by
 * the record's 22 positions.
 */
public record NodeSettings(int chunkBytes, long putWindowBytes, long getWindowBytes, int fetchParallelism,
        long rpcTimeoutMs, long probeIntervalMs, int rttWindow, long downAfterMs, int maxBlockSize,
        int defaultBlockSize, int maxBlocksPerFile, long memoryBudgetBytes, long scrubBytesPerSecond,
        long scrubPassIntervalMs, long replaceAfterMs, String backgroundTransport, long versionRetentionMs,
        long tombstoneRetentionMs, long antiEntropyIntervalMs, long clockOffsetMs, ReadOptions readDefault,
        int inlineMaxBytes) {

    public NodeSettings {
        Objects.requireNonNull(readDefault, "readDefault");
        require(chunkBytes >= 1024 && chunkBytes <= MAX_CHUNK, "chunk-bytes must be in 1024.." + MAX_CHUNK, chunkBytes);
        require(putWindowBytes >= chunkBytes, "put-window must be >= chunk-bytes", putWindowBytes);
        require(getWindowBytes >= chunkBytes, "get-window must be >= chunk-bytes", getWindowBytes);
        require(fetchParallelism >= 1, "fetch-parallelism must be >= 1", fetchParallelism);
        require(rpcTimeoutMs >= 100, "rpc-timeout must be >= 100 ms", rpcTimeoutMs);
        require(probeIntervalMs >= 10, "probe-interval must be >= 10 ms", probeIntervalMs);
        require(rttWindow >= 1, "rtt-window must be >= 1", rttWindow);
        require(downAfterMs > probeIntervalMs, "down-after must exceed probe-interval", downAfterMs);
        require(maxBlockSize >= 1 && maxBlockSize <= (256 << 20), "max-block-size must be in 1..256 MiB", maxBlockSize);
        require(defaultBlockSize >= 1 && defaultBlockSize <= maxBlockSize, "default-block-size must be in 1..max-block-size", defaultBlockSize);
        require(maxBlocksPerFile >= 1 && maxBlocksPerFile <= 4_000_000, "max-blocks-per-file must be in 1..4000000", maxBlocksPerFile);
        require(memoryBudgetBytes >= 2L * maxBlockSize, "memory-budget must hold at least two blocks of max-block-size", memoryBudgetBytes);
        require(scrubBytesPerSecond >= 0, "scrub-rate must be >= 0 (0 = off)", scrubBytesPerSecond);
        require(scrubPassIntervalMs >= 0, "scrub-pass-interval must be >= 0", scrubPassIntervalMs);
        require(replaceAfterMs >= 0, "replace-after must be >= 0 (0 = never)", replaceAfterMs);
        require(versionRetentionMs >= 1000, "version-retention must be >= 1 s", versionRetentionMs);
        require(tombstoneRetentionMs >= versionRetentionMs, "tombstone-retention must be >= version-retention",
                tombstoneRetentionMs);
        require(antiEntropyIntervalMs >= 10, "anti-entropy-interval must be >= 10 ms", antiEntropyIntervalMs);
        require(Math.abs(clockOffsetMs) <= 365L * 86_400_000, "clock-offset must be within a year", clockOffsetMs);
        require(inlineMaxBytes >= 0 && inlineMaxBytes <= Manifest.MAX_INLINE_BYTES,
                "inline-max must be in 0.." + Manifest.MAX_INLINE_BYTES + " bytes (0 = off)", inlineMaxBytes);
        if (!LEDBAT.equals(backgroundTransport) && !TCP.equals(backgroundTransport)) {
            throw new IllegalArgumentException("geoblocks.node.background-transport must be ledbat or tcp, was '"
                    + backgroundTransport + "'");
        }
    }

    private static void require(boolean ok, String what, long value) {
        if (!ok) {
            throw new IllegalArgumentException("geoblocks.node." + what + ", was " + value);
        }
    }

    /** background-transport values: scrub repair and re-replication over LEDBAT streams or TCP messages. */
    public static final String LEDBAT = "ledbat";
    public static final String TCP = "tcp";

    /** True when background block transfers (scrub repair, re-replication) ride LEDBAT. */
    public boolean backgroundOverLedbat() {
        return LEDBAT.equals(backgroundTransport);
    }

    /** These settings with {@code background-transport} set to {@code transport} (ledbat or tcp). */
    public NodeSettings withBackgroundTransport(String transport) {
        return toBuilder().backgroundTransport(transport).build();
    }

    /** These settings with other version retentions, anti-entropy interval and clock offset (simulator, tests). */
    public NodeSettings withVersions(long versionRetentionMs, long tombstoneRetentionMs, long antiEntropyIntervalMs,
            long clockOffsetMs) {
        return toBuilder().versionRetentionMs(versionRetentionMs).tombstoneRetentionMs(tombstoneRetentionMs)
                .antiEntropyIntervalMs(antiEntropyIntervalMs).clockOffsetMs(clockOffsetMs).build();
    }

    /** These settings with another scrub rate and pass interval (simulator, tests). */
    public NodeSettings withScrub(long scrubBytesPerSecond, long scrubPassIntervalMs) {
        return toBuilder().scrubBytesPerSecond(scrubBytesPerSecond).scrubPassIntervalMs(scrubPassIntervalMs).build();
    }

    /**
     * These settings with downloads that name no read strategy or rank (plain gets, S3 GETs) read as
     * {@code read} says (simulator, tests).
     */
    public NodeSettings withReadDefault(ReadOptions read) {
        return toBuilder().readDefault(read).build();
    }

    /**
     * These settings with objects of at most {@code bytes} stored inline in their manifest (0: none;
     * simulator, tests).
     */
    public NodeSettings withInlineMax(int bytes) {
        return toBuilder().inlineMaxBytes(bytes).build();
    }

    /** True when an upload of {@code size} bytes is stored inline in its manifest. */
    public boolean inlines(long size) {
        return inlineMaxBytes > 0 && size <= inlineMaxBytes;
    }

    /** Default of {@code inline-max}: Garage's threshold for objects kept in its metadata. */
    public static final int DEFAULT_INLINE_MAX = 3 << 10;

    /** Largest chunk: bounded by {@code FileCodec.MAX_DATA}. */
    public static final int MAX_CHUNK = 16 << 20;
    /** chunk-bytes = auto where Kompics' NettyNetwork (65,536-byte frames) or the simulator carries it. */
    public static final int SMALL_FRAME_CHUNK = 60_000;

    /** Settings with chunk-bytes = auto meaning {@link #SMALL_FRAME_CHUNK}. */
    public static NodeSettings from(Config root) {
        return from(root, SMALL_FRAME_CHUNK);
    }

    /** Settings with chunk-bytes = auto meaning {@code autoChunkBytes} (what the network in use carries well). */
    public static NodeSettings from(Config root, int autoChunkBytes) {
        Config c = root.getConfig("geoblocks.node");
        return new Builder()
                .chunkBytes(c.getString("chunk-bytes").equals("auto") ? autoChunkBytes : intBytes(c, "chunk-bytes"))
                .putWindowBytes(c.getBytes("put-window").longValue())
                .getWindowBytes(c.getBytes("get-window").longValue())
                .fetchParallelism(c.getInt("fetch-parallelism"))
                .rpcTimeoutMs(c.getDuration("rpc-timeout", TimeUnit.MILLISECONDS))
                .probeIntervalMs(c.getDuration("probe-interval", TimeUnit.MILLISECONDS))
                .rttWindow(c.getInt("rtt-window"))
                .downAfterMs(c.getDuration("down-after", TimeUnit.MILLISECONDS))
                .maxBlockSize(intBytes(c, "max-block-size"))
                .defaultBlockSize(intBytes(c, "default-block-size"))
                .maxBlocksPerFile(c.getInt("max-blocks-per-file"))
                .memoryBudgetBytes(budget(c))
                .scrubBytesPerSecond(c.getBytes("scrub-rate"))
                .scrubPassIntervalMs(c.getDuration("scrub-pass-interval", TimeUnit.MILLISECONDS))
                .replaceAfterMs(c.getDuration("replace-after", TimeUnit.MILLISECONDS))
                .backgroundTransport(c.getString("background-transport"))
                .versionRetentionMs(c.getDuration("version-retention", TimeUnit.MILLISECONDS))
                .tombstoneRetentionMs(c.getDuration("tombstone-retention", TimeUnit.MILLISECONDS))
                .antiEntropyIntervalMs(c.getDuration("anti-entropy-interval", TimeUnit.MILLISECONDS))
                .clockOffsetMs(c.getDuration("clock-offset", TimeUnit.MILLISECONDS))
                .readDefault(parseRead(c))
                .inlineMaxBytes(intBytes(c, "inline-max"))
                .build();
    }

    /** {@code read.strategy} and {@code read.rank}: how downloads that name neither read their blocks. */
    private static ReadOptions parseRead(Config c) {
        try {
            return ReadOptions.parse(c.getString("read.strategy"), c.getString("read.rank"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("geoblocks.node.read: " + e.getMessage(), e);
        }
    }

    /** A byte size that must fit an int; rejected (not wrapped) when it does not. */
    private static int intBytes(Config c, String key) {
        long v = c.getBytes(key);
        require(v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE, key + " must be below 2 GiB", v);
        return (int) v;
    }

    /** {@code memory-budget}: bytes, or "auto" = a quarter of the JVM's maximum heap. */
    private static long budget(Config c) {
        if (c.getString("memory-budget").equals("auto")) {
            return autoBudget();
        }
        return c.getBytes("memory-budget");
    }

    /** A quarter of the maximum heap, and at least 64 MiB (two blocks of the default largest size). */
    public static long autoBudget() {
        return Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4);
    }

    private static final long DAY_MS = 86_400_000L;

    /** Defaults as in reference.conf, for tests and the simulator. */
    public static NodeSettings defaults() {
        return new Builder().chunkBytes(60_000).putWindowBytes(16 << 20).getWindowBytes(8 << 20).fetchParallelism(4)
                .rpcTimeoutMs(15_000).probeIntervalMs(1000).rttWindow(10).downAfterMs(5000).maxBlockSize(32 << 20)
                .defaultBlockSize(1 << 20).maxBlocksPerFile(262_144).memoryBudgetBytes(autoBudget())
                .scrubBytesPerSecond(16L << 20).scrubPassIntervalMs(600_000).replaceAfterMs(600_000)
                .backgroundTransport(LEDBAT).versionRetentionMs(DAY_MS).tombstoneRetentionMs(30 * DAY_MS)
                .antiEntropyIntervalMs(1000).clockOffsetMs(0).readDefault(ReadOptions.DEFAULT)
                .inlineMaxBytes(DEFAULT_INLINE_MAX).build();
    }

    /** A builder starting from {@link #defaults()}: set what differs, by name, and {@link Builder#build()} validates. */
    public static Builder builder() {
        return defaults().toBuilder();
    }

    /** A builder holding these settings. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.chunkBytes = chunkBytes;
        b.putWindowBytes = putWindowBytes;
        b.getWindowBytes = getWindowBytes;
        b.fetchParallelism = fetchParallelism;
        b.rpcTimeoutMs = rpcTimeoutMs;
        b.probeIntervalMs = probeIntervalMs;
        b.rttWindow = rttWindow;
        b.downAfterMs = downAfterMs;
        b.maxBlockSize = maxBlockSize;
        b.defaultBlockSize = defaultBlockSize;
        b.maxBlocksPerFile = maxBlocksPerFile;
        b.memoryBudgetBytes = memoryBudgetBytes;
        b.scrubBytesPerSecond = scrubBytesPerSecond;
        b.scrubPassIntervalMs = scrubPassIntervalMs;
        b.replaceAfterMs = replaceAfterMs;
        b.backgroundTransport = backgroundTransport;
        b.versionRetentionMs = versionRetentionMs;
        b.tombstoneRetentionMs = tombstoneRetentionMs;
        b.antiEntropyIntervalMs = antiEntropyIntervalMs;
        b.clockOffsetMs = clockOffsetMs;
        b.readDefault = readDefault;
        b.inlineMaxBytes = inlineMaxBytes;
        return b;
    }

    /**
     * Settings by name instead of 22 positions; {@link #build()} runs the record's checks, so a bad value is
     * refused naming its key.
     */
    public static final class Builder {
        private int chunkBytes;
        private long putWindowBytes;
        private long getWindowBytes;
        private int fetchParallelism;
        private long rpcTimeoutMs;
        private long probeIntervalMs;
        private int rttWindow;
        private long downAfterMs;
        private int maxBlockSize;
        private int defaultBlockSize;
        private int maxBlocksPerFile;
        private long memoryBudgetBytes;
        private long scrubBytesPerSecond;
        private long scrubPassIntervalMs;
        private long replaceAfterMs;
        private String backgroundTransport;
        private long versionRetentionMs;
        private long tombstoneRetentionMs;
        private long antiEntropyIntervalMs;
        private long clockOffsetMs;
        private ReadOptions readDefault;
        private int inlineMaxBytes;

        private Builder() {
        }

        public Builder chunkBytes(int v) {
            this.chunkBytes = v;
            return this;
        }

        public Builder putWindowBytes(long v) {
            this.putWindowBytes = v;
            return this;
        }

        public Builder getWindowBytes(long v) {
            this.getWindowBytes = v;
            return this;
        }

        public Builder fetchParallelism(int v) {
            this.fetchParallelism = v;
            return this;
        }

        public Builder rpcTimeoutMs(long v) {
            this.rpcTimeoutMs = v;
            return this;
        }

        public Builder probeIntervalMs(long v) {
            this.probeIntervalMs = v;
            return this;
        }

        public Builder rttWindow(int v) {
            this.rttWindow = v;
            return this;
        }

        public Builder downAfterMs(long v) {
            this.downAfterMs = v;
            return this;
        }

        public Builder maxBlockSize(int v) {
            this.maxBlockSize = v;
            return this;
        }

        public Builder defaultBlockSize(int v) {
            this.defaultBlockSize = v;
            return this;
        }

        public Builder maxBlocksPerFile(int v) {
            this.maxBlocksPerFile = v;
            return this;
        }

        public Builder memoryBudgetBytes(long v) {
            this.memoryBudgetBytes = v;
            return this;
        }

        public Builder scrubBytesPerSecond(long v) {
            this.scrubBytesPerSecond = v;
            return this;
        }

        public Builder scrubPassIntervalMs(long v) {
            this.scrubPassIntervalMs = v;
            return this;
        }

        public Builder replaceAfterMs(long v) {
            this.replaceAfterMs = v;
            return this;
        }

        public Builder backgroundTransport(String v) {
            this.backgroundTransport = v;
            return this;
        }

        public Builder versionRetentionMs(long v) {
            this.versionRetentionMs = v;
            return this;
        }

        public Builder tombstoneRetentionMs(long v) {
            this.tombstoneRetentionMs = v;
            return this;
        }

        public Builder antiEntropyIntervalMs(long v) {
            this.antiEntropyIntervalMs = v;
            return this;
        }

        public Builder clockOffsetMs(long v) {
            this.clockOffsetMs = v;
            return this;
        }

        public Builder readDefault(ReadOptions v) {
            this.readDefault = v;
            return this;
        }

        public Builder inlineMaxBytes(int v) {
            this.inlineMaxBytes = v;
            return this;
        }

        public NodeSettings build() {
            return new NodeSettings(chunkBytes, putWindowBytes, getWindowBytes, fetchParallelism, rpcTimeoutMs,
                    probeIntervalMs, rttWindow, downAfterMs, maxBlockSize, defaultBlockSize, maxBlocksPerFile,
                    memoryBudgetBytes, scrubBytesPerSecond, scrubPassIntervalMs, replaceAfterMs, backgroundTransport,
                    versionRetentionMs, tombstoneRetentionMs, antiEntropyIntervalMs, clockOffsetMs, readDefault,
                    inlineMaxBytes);
        }
    }
}
