package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import geoblocks.blockstore.core.read.ReadOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeSettingsTest {

    private static NodeSettings load(String overrides) {
        Config c = ConfigFactory.parseString(overrides).withFallback(ConfigFactory.defaultReference()).resolve();
        return NodeSettings.from(c);
    }

    @Test
    void from_referenceConf_equalsDefaults() {
        assertEquals(NodeSettings.defaults(), load(""));
    }

    @Test
    void from_autoChunk_takesTheNetworksValue_explicitValueWins() {
        Config ref = ConfigFactory.load();
        assertEquals(NodeSettings.SMALL_FRAME_CHUNK, NodeSettings.from(ref).chunkBytes());
        assertEquals(1 << 20, NodeSettings.from(ref, 1 << 20).chunkBytes());
        Config set = ConfigFactory.parseString("geoblocks.node.chunk-bytes = 8 KiB")
                .withFallback(ref);
        assertEquals(8192, NodeSettings.from(set, 1 << 20).chunkBytes());
    }

    @Test
    void from_unitsInConfig_areConverted() {
        NodeSettings s = load("geoblocks.node { chunk-bytes = 32 KiB, rpc-timeout = 2 s, probe-interval = 250 ms,"
                + " down-after = 1 s, max-block-size = 8 MiB, default-block-size = 64 KiB }");
        assertEquals(32 * 1024, s.chunkBytes());
        assertEquals(2000, s.rpcTimeoutMs());
        assertEquals(250, s.probeIntervalMs());
        assertEquals(1000, s.downAfterMs());
        assertEquals(8 << 20, s.maxBlockSize());
        assertEquals(64 << 10, s.defaultBlockSize());
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "chunk-bytes | 1023",
        "chunk-bytes | 16777217",
        "chunk-bytes | 0",
        "put-window | 1000",
        "get-window | 59999",
        "fetch-parallelism | 0",
        "fetch-parallelism | -3",
        "rpc-timeout | 99 ms",
        "probe-interval | 9 ms",
        "rtt-window | 0",
        "down-after | 1 s",
        "down-after | 500 ms",
        "max-block-size | 0",
        "max-block-size | 257 MiB",
        "default-block-size | 0",
        "default-block-size | 65 MiB",
    })
    void from_badValue_isRejectedNamingTheKey(String key, String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> load("geoblocks.node." + key + " = " + value));
        assertTrue(e.getMessage().contains("geoblocks.node." + key), e.getMessage());
    }

    /** Byte sizes beyond an int must be rejected, not silently wrapped into a small valid value. */
    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "max-block-size | 4097 MiB",
        "max-block-size | 4 GiB",
        "default-block-size | 4097 MiB",
        "chunk-bytes | 4295027296",
    })
    void from_byteSizeOverflowingInt_isRejectedNamingTheKey(String key, String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> load("geoblocks.node." + key + " = " + value));
        assertTrue(e.getMessage().contains("geoblocks.node." + key), e.getMessage());
    }

    @Test
    void new_badValue_messageIncludesTheValue() {
        NodeSettings d = NodeSettings.defaults();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.toBuilder().fetchParallelism(0).build());
        assertTrue(e.getMessage().contains("geoblocks.node.fetch-parallelism"), e.getMessage());
        assertTrue(e.getMessage().endsWith("was 0"), e.getMessage());
    }

    @Test
    void new_boundaryValues_areAccepted() {
        NodeSettings.builder().chunkBytes(1024).putWindowBytes(1024).getWindowBytes(1024).fetchParallelism(1)
                .rpcTimeoutMs(100).probeIntervalMs(10).rttWindow(1).downAfterMs(11).maxBlockSize(1).defaultBlockSize(1)
                .maxBlocksPerFile(1).memoryBudgetBytes(2).scrubBytesPerSecond(0).scrubPassIntervalMs(0).replaceAfterMs(0)
                .backgroundTransport("tcp").versionRetentionMs(1000).tombstoneRetentionMs(1000).antiEntropyIntervalMs(10)
                .clockOffsetMs(-365L * 86_400_000).readDefault(ReadOptions.DEFAULT).inlineMaxBytes(0).build();
        NodeSettings.builder().chunkBytes(60_000).putWindowBytes(60_000).getWindowBytes(60_000).fetchParallelism(1)
                .rpcTimeoutMs(100).probeIntervalMs(10).rttWindow(1).downAfterMs(11).maxBlockSize(256 << 20)
                .defaultBlockSize(256 << 20).maxBlocksPerFile(4_000_000).memoryBudgetBytes(512L << 20)
                .scrubBytesPerSecond(1L << 40).scrubPassIntervalMs(1).replaceAfterMs(1).backgroundTransport("ledbat")
                .versionRetentionMs(Long.MAX_VALUE / 2).tombstoneRetentionMs(Long.MAX_VALUE / 2).antiEntropyIntervalMs(10)
                .clockOffsetMs(365L * 86_400_000).readDefault(ReadOptions.DEFAULT)
                .inlineMaxBytes(Manifest.MAX_INLINE_BYTES).build();
    }

    @Test
    void from_versionSettings_defaultsAndBadValues() {
        NodeSettings d = load("");
        assertEquals(86_400_000L, d.versionRetentionMs());
        assertEquals(30 * 86_400_000L, d.tombstoneRetentionMs());
        assertEquals(1000, d.antiEntropyIntervalMs());
        assertEquals(0, d.clockOffsetMs());
        assertEquals(-250, load("geoblocks.node.clock-offset = -250 ms").clockOffsetMs());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> load("geoblocks.node.version-retention = 2 d\ngeoblocks.node.tombstone-retention = 1 d"));
        assertTrue(e.getMessage().contains("geoblocks.node.tombstone-retention must be >= version-retention"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> load("geoblocks.node.version-retention = 10 ms"));
        assertTrue(e.getMessage().contains("version-retention must be >= 1 s, was 10"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> load("geoblocks.node.anti-entropy-interval = 0 s"));
        assertTrue(e.getMessage().contains("anti-entropy-interval"), e.getMessage());
    }

    @Test
    void from_backgroundTransport_defaultsToLedbat_tcpSelectable() {
        assertTrue(load("").backgroundOverLedbat());
        assertFalse(load("geoblocks.node.background-transport = tcp").backgroundOverLedbat());
    }

    @Test
    void from_unknownBackgroundTransport_isRejectedNamingKeyAndValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> load("geoblocks.node.background-transport = udt"));
        assertTrue(e.getMessage().contains("geoblocks.node.background-transport must be ledbat or tcp"), e.getMessage());
        assertTrue(e.getMessage().contains("'udt'"), e.getMessage());
    }

    @Test
    void from_read_defaultsToFirstByRtt_andIsSettable() {
        assertEquals(ReadOptions.DEFAULT, load("").readDefault());
        NodeSettings s = load("geoblocks.node.read { strategy = hedged, rank = load }");
        assertEquals(new ReadOptions(
                ReadOptions.Strategy.HEDGED, true), s.readDefault());
        assertEquals(s.readDefault(), s.withBackgroundTransport(NodeSettings.TCP).readDefault(), "kept by with...");
        assertEquals(s.readDefault(), s.withVersions(2000, 2000, 10, 0).readDefault());
    }

    @Test
    void from_unknownReadStrategyOrRank_isRejectedNamingTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> load("geoblocks.node.read.strategy = fastest"));
        assertTrue(e.getMessage().startsWith("geoblocks.node.read: unknown read strategy 'fastest'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> load("geoblocks.node.read.rank = cost"));
        assertTrue(e.getMessage().startsWith("geoblocks.node.read: unknown replica rank 'cost'"), e.getMessage());
    }

    @Test
    void from_inlineMax_defaultsTo3KiB_zeroTurnsItOff_aboveTheCapIsRejected() {
        NodeSettings d = load("");
        assertEquals(3072, d.inlineMaxBytes());
        assertTrue(d.inlines(0) && d.inlines(3072));
        assertFalse(d.inlines(3073));
        NodeSettings off = load("geoblocks.node.inline-max = 0");
        assertFalse(off.inlines(0) || off.inlines(1));
        assertEquals(16384, load("geoblocks.node.inline-max = 16 KiB").inlineMaxBytes());
        assertEquals(100, d.withInlineMax(100).inlineMaxBytes());
        assertEquals(3072, d.withVersions(2000, 2000, 10, 0).withReadDefault(ReadOptions.DEFAULT)
                .withBackgroundTransport(NodeSettings.TCP).inlineMaxBytes(), "kept by with...");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> load("geoblocks.node.inline-max = 17 KiB"));
        assertTrue(e.getMessage().contains("geoblocks.node.inline-max must be in 0..16384"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> d.withInlineMax(-1));
    }
}
