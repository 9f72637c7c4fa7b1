package geoblocks.blockstore.wire;

import static geoblocks.blockstore.wire.WireTesting.V4;
import static geoblocks.blockstore.wire.WireTesting.V6;
import static geoblocks.blockstore.wire.WireTesting.assertRecordEquals;
import static geoblocks.blockstore.wire.WireTesting.decode;
import static geoblocks.blockstore.wire.WireTesting.decodeOrMalformed;
import static geoblocks.blockstore.wire.WireTesting.encode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.BenchOp.*;
import geoblocks.blockstore.wire.ClientOp.*;
import geoblocks.blockstore.wire.FileOp.*;
import geoblocks.blockstore.wire.PeerOp.*;
import geoblocks.net.Bytes;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.Wire;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FileCodecTest {
    private static final FileCodec CODEC = FileCodec.INSTANCE;
    private static final int H = Wire.headerSize(V4);

    private static byte[] bytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static ListEntry entry(int i) {
        return i % 2 == 0 ? new ListEntry("file-" + i + "-é", i * 1000L, 1 << 20, "tworandom", "dublin", 1_700_000_000_000L + i)
                : new ListEntry("file-" + i, i, 1, "local", "seoul", i, java.util.Map.of("etag", "e" + i));
    }

    /** At least one of every op, with edge values: empty and maximal strings, data and lists. */
    static List<FileOp> samples() {
        String maxString = "x".repeat(FileCodec.MAX_STRING);
        String unicode = "写真 \uD83D\uDE00 résumé";
        return List.of(
                new PutBegin(1, "a.bin", 123_456_789L, 1 << 20, "localclosest"),
                new PutBegin(Long.MIN_VALUE, "", -1, -1, ""),
                new PutBegin(1, "b.bin", 7, 1, "tworandom", "local"),
                new PutBegin(1, "c.bin", 7, 1, "local", "all", true),
                new PutBegin(1, "d.bin", 7, 1, "local", "local", false,
                        java.util.Map.of("etag", "d41d8cd98f00b204e9800998ecf8427e", "content-type", "text/plain")),
                new StatPending(6, false, List.of()),
                new StatPending(6, true, List.of(new PendingCopy(0, "seoul"), new PendingCopy(Integer.MAX_VALUE, unicode))),
                new PutData(2, 3, 65536, 0xCAFEBABE, true, bytes(1, 1000)),
                new PutData(-2, 0, 0, 0, false, new byte[0]),
                new PutData(4, 1, 0, 0x1234, true, bytes(3, 100), 2, 0x5678),
                new PutData(Long.MAX_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE, -1, true, bytes(2, FileCodec.MAX_DATA)),
                new GetBegin(3, unicode),
                new GetBegin(3, "a", "018bcfe568000003@seoul"),
                new StatReq(6, "a", "018bcfe568000003@seoul"),
                new VersionsReq(26, unicode),
                new VersionList(27, List.of(), false),
                new VersionList(27, List.of(new VersionEntry(Long.MAX_VALUE, "seoul", 5, "dublin", -1, 3, false),
                        new VersionEntry(0, unicode, 0, "", Long.MIN_VALUE, 0, true),
                        new VersionEntry(1, "seoul", 3, "seoul", 1, 0, false, java.util.Map.of("etag", "e", "keep", "1"))), true),
                new Committed(28, "018bcfe568000003@seoul", "stored"),
                new Committed(28, "", unicode),
                new CreateClaim(29, 0, 100, bytes(8, 100)),
                new CreateClaim(29, 60_000, 1 << 20, bytes(9, 60_000)),
                new CreateClaim(29, 0, 100, bytes(8, 100), WriteCondition.on("etag", null, "\"abc\"")),
                new CreateClaim(29, 0, 100, bytes(8, 100), WriteCondition.on("", "x".repeat(WriteCondition.MAX_TAGS_BYTES), "*")),
                new PutBegin(1, "e.bin", 7, 1, "local", "all", WriteCondition.on("etag", "\"abc\", W/\"d\"", null),
                        java.util.Map.of()),
                new DeleteReq(7, "gone.txt", WriteCondition.on("etag", "*", null), java.util.Map.of("removes", "v")),
                new Claimed(30, 1L << 62, "saopaulo"),
                new SyncDigest(31, List.of()),
                new SyncDigest(31, IntStream.range(0, 256).mapToObj(i -> (long) i * 0x9E3779B97F4A7C15L).toList()),
                new SyncNames(32, List.of(), false),
                new SyncNames(32, List.of(new NameDigest("a", -1), new NameDigest(unicode, 0)), true),
                new SyncLeaves(38, List.of(), false),
                new SyncLeaves(38, List.of(new BucketLeaves(0, List.of()),
                        new BucketLeaves(255, IntStream.range(0, 256).mapToObj(i -> i * 0xC2B2AE3D27D4EB4FL).toList()),
                        new BucketLeaves(-1, List.of(Long.MIN_VALUE, Long.MAX_VALUE))), true),
                new SyncNamesReq(39, List.of()),
                new SyncNamesReq(39, List.of(0, 257, 65_535, Integer.MIN_VALUE)),
                new GetRead(33, "f", "", "hedged", "load"),
                new GetRead(33, maxString, unicode, "", ""),
                new FetchPaced(34, "f1d2"),
                new FetchMore(35, Long.MAX_VALUE),
                new FetchCancel(36),
                new GetRange(37, "f", "", "", "", 0, 0),
                new GetRange(37, maxString, unicode, "parallel", "load", Long.MAX_VALUE - 1, Long.MAX_VALUE),
                new GetAck(4, Long.MAX_VALUE),
                new ListReq(5, "photos/", "photos/after", 100),
                new ListReq(5, "", "", 0),
                new ListReq(5, "b/", "b/x", 10, true),
                new ListReq(5, maxString, unicode, Integer.MAX_VALUE),
                new StatReq(6, maxString),
                new DeleteReq(7, "gone.txt"),
                new ClientOp.PurgeReq(7, "gone.txt", "0000018c00000001@seoul"),
                new StatusReq(8),
                new PutProgress(9, 42L << 30),
                new ClientOp.Waiting(9, 5000),
                new GetData(10, 1L << 40, bytes(3, 60_000)),
                new GetData(10, 0, new byte[0]),
                new ListPart(11, List.of(), false),
                new ListPart(11, List.of(entry(1), entry(2)), true),
                new ListPart(11, IntStream.range(0, FileCodec.MAX_LIST).mapToObj(FileCodecTest::entry).toList(), true),
                new StatusReply(12, "seoul", List.of(), 0, 0, 0, 0, 0, new Transfers(0, 0, 0, 0, 0, 0),
                        new Background(0, 0, List.of())),
                new StatusReply(12, "seoul", List.of(new PeerRtt("mumbai", 160.25), new PeerRtt("dublin", -1),
                        new PeerRtt("x", Double.NaN), new PeerRtt("y", -0.0), new PeerRtt("z", Double.POSITIVE_INFINITY)), 7, Long.MAX_VALUE, 3, 2, 1,
                        new Transfers(1, 2L << 40, Long.MAX_VALUE, 4, 1, 3),
                        new Background(5L << 30, 17, List.of(new LedbatPeer("mumbai", true, 4, 123_456, 1 << 20, 99_000,
                                97.5, 80.25, 160.125, 12, 1392), new LedbatPeer("dublin", false, 0, 0, 0, 0, Double.NaN, -3.5, Double.NaN, 0))),
                        new Gc(Long.MAX_VALUE, 7L << 40, 3, true, 100, 4, 2, 1_700_000_000_000L, -1, 12)),
                new ManifestPart(13, true, 0, 100, bytes(4, 100)),
                new ManifestPart(13, false, 60_000, 200_000, bytes(5, 60_000)),
                new Done(14, "ok"),
                new Done(14, ""),
                new Failed(15, FailureCode.NOT_FOUND, "no such file 'x'"),
                new Failed(15, FailureCode.OUTCOME_UNKNOWN, unicode),
                new ReplicaData(16, "b-f00d-0", 0, 1 << 20, 0x12345678, false, bytes(6, 4096)),
                new ReplicaData(16, "b-f00d-0", 4096, 1 << 20, 0x12345678, true, bytes(7, 10)),
                new MoveReq(40, "photos/1", List.of("dublin", "mumbai")),
                new HoldBlocks(0, List.of()),
                new LayoutSync(0, 3, 0x0123456789ABCDEFL, new byte[0]),
                new LayoutSync(0, Long.MAX_VALUE, -1, bytes(8, 300)),
                new ClusterReq(44, "show", "", "", "", 0, false),
                new ClusterReq(44, "add", "mumbai", "10.0.3.1:47000", "ap-south", 4L << 40, true),
                new ClusterReq(44, "add", "mumbai", "10.0.3.1:47000", "", 0, false, "ed25519:" + "A".repeat(43) + "="),
                new ClusterReply(45, bytes(9, 40), List.of(), List.of()),
                new ClusterReply(45, bytes(9, 200), List.of(new RegionReport("seoul", 3, 120, 1L << 30, -1, 1L << 20),
                        new RegionReport("dublin", -1, 0, 0, 17, 0)), List.of("forced: " + unicode)),
                new HoldBlocks(0, List.of("f00d", "beef01")),
                new MoveCopy(41, "b-f00d-3", 1 << 20, -7, List.of("seoul")),
                new DropBlocks(42, "photos/1", List.of("b-f00d-0", "b-f00d-1")),
                new DropBlocks(43, "x", List.of()),
                new ReplicaStored(17, "b-f00d-0"),
                new FetchBlock(18, "b-f00d-1"),
                new BlockData(19, 60_000, 1 << 20, 77, bytes(7, 500)),
                new BlockData(19, 0, 0, 0, new byte[0]),
                new LookupManifest(20, "a.bin"),
                new DeleteFile(21, "a.bin"),
                new BackgroundFetch(22, "b-f00d-2", 1 << 20, 0xDEADBEEF),
                new BackgroundFetch(22, "", 0, 0),
                new BackgroundOffer(23, "b-f00d-3", Integer.MAX_VALUE, -1),
                new BackgroundStored(24, "b-f00d-3", true, ""),
                new BackgroundStored(24, "b-f00d-3", false, "checksum 00000001 != manifest 00000002 " + unicode),
                new PoliciesReq(25),
                new NetBenchReq(50, "dublin", "udp", 4, 0, 1_000_000_000L, 2000, 1200),
                new NetBenchReq(50, unicode, "", Integer.MIN_VALUE, Long.MAX_VALUE, -1, -1, -1),
                new NetBenchOpen(51, 7, "tcp"),
                new NetBenchData(0, 7, 3, Long.MAX_VALUE, -5, bytes(8, 1200)),
                new NetBenchData(0, -1, 0, 0, 0, new byte[0]),
                new NetBenchAck(0, 7, 3, 1L << 40),
                new NetBenchEnd(52, 7),
                new NetBenchReport(52, 100, 120_000, 3_000, 2_000_000_000L),
                new NetBenchResult(50, "ledbat", 4, 0, 1 << 26, 64, 1 << 26, 64, 1_356_124_267L, 0),
                new PoliciesReply(26, "seoul", List.of()),
                new PoliciesReply(26, unicode, List.of(new PolicyInfo("local", "seed", 1, "this node"),
                        new PolicyInfo("eu-near", "declarative", Integer.MAX_VALUE, maxString.substring(0, FileOp.MAX_TEXT_BYTES)),
                        new PolicyInfo("", "", -1, ""))));
    }

    @Test
    void samples_coverEveryOpType() {
        Set<Class<?>> covered = new HashSet<>();
        samples().forEach(op -> covered.add(op.getClass()));
        assertEquals(opTypes(FileOp.class), covered);
        assertEquals(57, covered.size());
    }

    /** The records of a sealed op interface, those of its sealed sub-interfaces (FileOp.Control) included. */
    private static Set<Class<?>> opTypes(Class<?> sealed) {
        Set<Class<?>> out = new HashSet<>();
        for (Class<?> c : sealed.getPermittedSubclasses()) {
            if (c.isInterface()) {
                out.addAll(opTypes(c));
            } else if (c != FileOp.Unknown.class) { // only the decoder makes one; never written
                out.add(c);
            }
        }
        return out;
    }

    @Test
    void controlOps_areTheOrderIndependentOnes() {
        Set<String> control = new java.util.TreeSet<>();
        for (Class<?> c : FileOps.records()) {
            if (FileOp.Control.class.isAssignableFrom(c)) {
                control.add(c.getSimpleName());
            }
        }
        assertEquals(Set.of("BackgroundStored", "Claimed", "CreateClaim", "FetchCancel", "FetchMore", "GetAck",
                "HoldBlocks", "LayoutSync", "LookupManifest", "ManifestPart", "NetBenchAck", "PutProgress", "ReplicaStored",
                "StatPending", "StatusReq", "SyncDigest", "SyncLeaves", "SyncNames", "SyncNamesReq", "Waiting"), control,
                "a new control op must not depend on arriving after the blocks sent before it (FileOp.Control)");
        assertTrue(new FileMsg(V4,
                new ClientOp.GetAck(1, 2)).isControl());
        assertFalse(new FileMsg(V4,
                new FileOp.Done(1, "")).isControl(), "an answer that ends a transfer follows its data");
    }

    @Test
    void roundTrip_everyOp_equalsOriginalAndSizeMatches() throws MalformedMessageException {
        for (NetHeader h : List.of(V4, V6)) {
            for (FileOp op : samples()) {
                FileMsg msg = new FileMsg(h, op);
                byte[] wire = encode(CODEC, msg);
                assertEquals(wire.length, msg.wireSize());
                ByteBuffer in = ByteBuffer.wrap(wire);
                FileMsg back = CODEC.decode(in);
                assertEquals(0, in.remaining(), op + ": decoder left bytes");
                assertEquals(h, back.getHeader());
                assertRecordEquals((Record) op, (Record) back.op());
            }
        }
    }

    @Test
    void statusReply_ofAnOlderNode_withoutPathMtus_decodesWithNone() throws MalformedMessageException {
        List<LedbatPeer> peers = List.of(new LedbatPeer("mumbai", true, 4, 123_456, 1 << 20, 99_000, 97.5, 80.25,
                160.125, 12, 1392), new LedbatPeer("seoul", true, 1, 2, 3, 4, 5, 6, 7, 8, 1471));
        StatusReply r = new StatusReply(12, "dublin", List.of(), 0, 0, 0, 0, 0, new Transfers(0, 0, 0, 0, 0, 0),
                new Background(0, 0, peers));
        byte[] wire = encode(CODEC, new FileMsg(V4, r));
        byte[] older = Arrays.copyOf(wire, wire.length - 2 - 4 * peers.size());   // as c64bb8f wrote it
        StatusReply back = (StatusReply) CODEC.decode(ByteBuffer.wrap(older)).op();
        assertEquals(List.of(0, 0), back.background().peers().stream().map(LedbatPeer::pathMtuBytes).toList());
        assertEquals(peers.get(0).withPathMtu(0), back.background().peers().get(0));
    }

    @Test
    void getData_headThenTail_isTheWholeEncoding_andOnlyGetDataHasATail() {
        byte[] block = bytes(7, 50_000);
        FileMsg msg = new FileMsg(V6, new GetData(10, 1L << 33, block));
        byte[] whole = encode(CODEC, msg);
        Bytes tail = CODEC.tail(msg);
        assertEquals(block.length, tail.length());
        ByteBuffer head = ByteBuffer.allocate(CODEC.encodedSize(msg) - tail.length());
        CODEC.encodeHead(msg, head);
        assertEquals(0, head.remaining(), "the head fills exactly the size less the tail");
        ByteBuffer joined = ByteBuffer.allocate(whole.length).put(head.flip()).put(tail.nio());
        assertArrayEquals(whole, joined.array());
        assertNull(CODEC.tail(new FileMsg(V4, new Done(1, "no data"))));
    }

    @Test
    void getData_decodedWithAKeeper_keepsTheBlockWhereItIs_elseCopies() throws MalformedMessageException {
        byte[] block = bytes(9, 30_000);
        byte[] wire = encode(CODEC, new FileMsg(V4, new GetData(3, 77, block)));
        int[] asked = new int[2];
        Bytes kept = Bytes.wrap(block);
        FileMsg back = CODEC.decode(ByteBuffer.wrap(wire), (position, length) -> {
            asked[0] = position;
            asked[1] = length;
            assertArrayEquals(block, Arrays.copyOfRange(wire, position, position + length),
                    "the keeper is asked for exactly the block's bytes");
            return kept;
        });
        assertSame(kept, ((GetData) back.op()).data());
        assertEquals(wire.length - block.length, asked[0], "the block ends the message");
        assertEquals(block.length, asked[1]);
        assertEquals(77, ((GetData) back.op()).offset());
        // without a keeper the bytes are a copy
        Bytes copied = ((GetData) CODEC.decode(ByteBuffer.wrap(wire)).op()).data();
        wire[wire.length - 1] ^= 1;
        assertArrayEquals(block, copied.toArray());
        // a length past the end is refused before the keeper is asked
        byte[] cut = Arrays.copyOf(wire, wire.length - 1);
        assertThrows(MalformedMessageException.class, () -> CODEC.decode(ByteBuffer.wrap(cut), (p, l) -> {
            throw new AssertionError("asked to keep " + l + " bytes that are not there");
        }));
    }

    @Test
    void decode_twoMessagesBackToBack_readsEachInTurn() throws MalformedMessageException {
        byte[] a = encode(CODEC, new FileMsg(V4, new Done(1, "first")));
        byte[] b = encode(CODEC, new FileMsg(V6, new GetAck(2, 99)));
        ByteBuffer in = ByteBuffer.allocate(a.length + b.length).put(a).put(b).flip();
        assertRecordEquals(new Done(1, "first"), (Record) CODEC.decode(in).op());
        assertRecordEquals(new GetAck(2, 99), (Record) CODEC.decode(in).op());
        assertEquals(0, in.remaining());
    }

    /** The pinned encodings of one version: one line per op, "SimpleName hex" (see {@link #golden}). */
    private static String goldenFile(int version) {
        return "file-protocol-v" + version + ".txt";
    }

    /**
     * Per op class, the encoding (V4 header) of its smallest sample: every op's tag, field order and
     * field widths, pinned. Reordering the codec's table, renumbering a tag or changing a field
     * fails this test; such a change needs a new protocol version and a new golden file (write it
     * with -Dfileprotocol.golden.write=PATH and check the diff by hand).
     */
    private static java.util.Map<String, String> golden(int version) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        java.util.Map<String, Integer> sizes = new java.util.HashMap<>();
        for (FileOp op : samples()) {
            byte[] wire = encode(CODEC, new FileMsg(V4, op, version));
            String name = op.getClass().getSimpleName();
            if (!sizes.containsKey(name) || wire.length < sizes.get(name)) {
                sizes.put(name, wire.length);
                out.put(name, java.util.HexFormat.of().formatHex(wire));
            }
        }
        return out;
    }

    /** Every version this build speaks has its pinned bytes: a node writes each, to peers of either release. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {3, 4, 5})
    void encode_everyOp_matchesThePinnedBytes(int version) throws Exception {
        assertTrue(FileCodec.RANGE.contains(version));
        String GOLDEN = goldenFile(version);
        java.util.Map<String, String> actual = golden(version);
        String write = System.getProperty("fileprotocol.golden.write");
        if (write != null && version == FileCodec.VERSION) {
            StringBuilder sb = new StringBuilder();
            actual.forEach((k, v) -> sb.append(k).append(' ').append(v).append('\n'));
            java.nio.file.Files.writeString(java.nio.file.Path.of(write), sb);
        }
        java.util.Map<String, String> pinned = new java.util.TreeMap<>();
        try (java.io.InputStream in = FileCodecTest.class.getResourceAsStream(GOLDEN)) {
            assertTrue(in != null, GOLDEN + " is missing");
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    String[] kv = line.split(" ");
                    pinned.put(kv[0], kv[1]);
                }
            }
        }
        assertEquals(opTypes(FileOp.class).size(), pinned.size(), "one pinned line per op");
        assertEquals(pinned.keySet(), actual.keySet());
        for (String op : pinned.keySet()) {
            assertEquals(pinned.get(op), actual.get(op), op + " no longer encodes as pinned");
        }
        for (FileOp op : samples()) { // and the decoder reads the same tags, at the same version
            byte[] wire = encode(CODEC, new FileMsg(V4, op, version));
            assertEquals(FileCodec.tagOf(op.getClass()), wire[H + 1] & 0xff);
            FileMsg back = decode(CODEC, wire, wire.length);
            assertEquals(op.getClass(), back.op().getClass());
            assertEquals(version, back.wireVersion());
        }
    }

    @Test
    void versions_theRangeIsTheOwnAndThePreviousReleases_and3_whichA0_2NodeWritesBeforeItsHandshake() {
        assertEquals(new geoblocks.net.VersionRange(3, FileCodec.VERSION), FileCodec.RANGE);
        assertEquals(FileCodec.RANGE, CODEC.versions());
        assertEquals(FileCodec.RANGE.min(), new FileMsg(V4, new Done(1, "")).wireVersion(),
                "a message with no version picked goes at the lowest, which every peer in range reads");
        assertThrows(IllegalArgumentException.class, () -> new FileMsg(V4, new Done(1, ""), FileCodec.VERSION + 1));
    }

    /** File protocol 5: a status reply ends with what the members run; written at 4 without it, as 0.2.x reads it. */
    @Test
    void statusReply_carriesTheMembersVersionsAt5_andDropsThemAt4() throws Exception {
        ClientOp.Versions v = new ClientOp.Versions("geoblocks 0.3.0 (commit 1a2b)", "0.2", "x", List.of(
                new ClientOp.MemberBuild("dublin", "0.2.x", 4), new ClientOp.MemberBuild("seoul", "0.3.0", 5)));
        StatusReply plain = new StatusReply(9, "seoul", List.of(), 0, 0, 0, 0, 0,
                new ClientOp.Transfers(0, 0, 0, 0, 0, 0), new ClientOp.Background(0, 0, List.of()));
        StatusReply with = new StatusReply(9, "seoul", List.of(), 0, 0, 0, 0, 0, plain.transfers(), plain.background(),
                plain.gc(), v);
        byte[] at5 = encode(CODEC, new FileMsg(V4, with, 5));
        StatusReply back = (StatusReply) decode(CODEC, at5, at5.length).op();
        assertEquals(v, back.versions());
        byte[] plainAt5 = encode(CODEC, new FileMsg(V4, plain, 5));
        String tail = java.util.HexFormat.of().formatHex(Arrays.copyOfRange(at5, plainAt5.length, at5.length));
        assertEquals("0000" // no LEDBAT peers' path MTUs, written so the versions can follow
                + "0000" // nor their stall times
                + "001d" + hex("geoblocks 0.3.0 (commit 1a2b)") + "0003" + hex("0.2") + "0001" + hex("x") + "0002"
                + "0006" + hex("dublin") + "0005" + hex("0.2.x") + "00000004"
                + "0005" + hex("seoul") + "0005" + hex("0.3.0") + "00000005", tail);
        byte[] at4 = encode(CODEC, new FileMsg(V4, with, 4));
        assertArrayEquals(encode(CODEC, new FileMsg(V4, plain, 4)), at4, "at 4, the reply 0.2.x reads");
        assertEquals(null, ((StatusReply) decode(CODEC, at4, at4.length).op()).versions());
    }

    /** File protocol 5: a LEDBAT flow's stall time rides after the path MTUs; at 4 it is not written (0: not watched). */
    @Test
    void statusReply_carriesStallTimesAt5_only() throws Exception {
        ClientOp.Versions v = new ClientOp.Versions("b", "0.2", "", List.of());
        LedbatPeer stalled = new LedbatPeer("mumbai", true, 1, 2800, 20 << 20, 2800, 1.0, 80.0, 160.0, 133, 1392)
                .stalledFor(45_000);
        StatusReply r = new StatusReply(9, "seoul", List.of(), 0, 0, 0, 0, 0, new ClientOp.Transfers(0, 0, 0, 0, 0, 0),
                new ClientOp.Background(0, 0, List.of(stalled)), ClientOp.Gc.NONE, v);
        byte[] at5 = encode(CODEC, new FileMsg(V4, r, 5));
        assertEquals(45_000, ((StatusReply) decode(CODEC, at5, at5.length).op()).background().peers().get(0).stalledForMs());
        byte[] at4 = encode(CODEC, new FileMsg(V4, r, 4));
        StatusReply old = (StatusReply) decode(CODEC, at4, at4.length).op();
        assertEquals(0, old.background().peers().get(0).stalledForMs());
        assertEquals(1392, old.background().peers().get(0).pathMtuBytes());
    }

    private static String hex(String s) {
        return java.util.HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void decode_anotherProtocolVersion_isRefusedNamingBoth() {
        byte[] good = encode(CODEC, new FileMsg(V4, new Done(1, "x")));
        for (int v : new int[] {0, FileCodec.RANGE.min() - 1, FileCodec.VERSION + 1, 127}) {
            byte[] bad = good.clone();
            bad[H] = (byte) (0x80 + v);
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, bad, bad.length));
            assertTrue(e.getMessage().contains("the peer " + v) && e.getMessage().contains("version " + FileCodec.RANGE),
                    e.getMessage());
            assertTrue(e.getMessage().contains(v > FileCodec.VERSION ? "upgrade this node" : "upgrade the peer"), e.getMessage());
        }
    }

    /**
     * Every strict prefix of every sample fails to decode. Samples over 8 KiB (maximal data, the
     * 1000-entry list) are cut at every byte of their first and last 4 KiB, which holds every field
     * boundary, and at every 61st byte between: each cut costs an exception, and the list's cuts
     * cost quadratic decoding.
     */
    @Test
    void decode_everyStrictTruncation_throwsMalformed() {
        for (FileOp op : samples()) {
            byte[] wire = encode(CODEC, new FileMsg(V4, op));
            boolean huge = wire.length > 8192;
            // an optional trailing field (a ClusterReq's key): cut just before it, the request is the same without it
            int optional = op instanceof ClientOp.ClusterReq c && !c.key().isEmpty()
                    ? encode(CODEC, new FileMsg(V4, new ClusterReq(c.req(), c.action(), c.region(), c.address(), c.zone(),
                            c.capacityBytes(), c.force()))).length : -1;
            // a status reply cut before its appended path MTUs is the older layout, and valid
            int older = op instanceof StatusReply r && !r.background().peers().isEmpty()
                    ? wire.length - 2 - 4 * r.background().peers().size() : -1;
            for (int len = 0; len < wire.length; len++) {
                if (huge && len > 4096 && len < wire.length - 4096 && len % 61 != 0 || len == older) {
                    continue;
                }
                int cut = len;
                if (cut == optional) {
                    ClientOp.ClusterReq c = (ClientOp.ClusterReq) op;
                    assertEquals(new ClusterReq(c.req(), c.action(), c.region(), c.address(), c.zone(), c.capacityBytes(),
                            c.force()), assertDoesNotThrow(() -> decode(CODEC, wire, cut)).op());
                    continue;
                }
                assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, cut),
                        () -> op.getClass().getSimpleName() + " cut to " + cut + " of " + wire.length);
            }
        }
    }

    private static byte[] headerAndTag(int tag, int extra) {
        ByteBuffer b = ByteBuffer.allocate(H + 2 + extra);
        Wire.writeHeader(V4, b);
        b.put((byte) FileCodec.VERSION_BYTE);
        b.put((byte) tag);
        return b.array();
    }

    private static byte[] headerTagReq(int version, int tag, long req, int extra) {
        ByteBuffer b = ByteBuffer.allocate(H + 2 + 8 + extra);
        Wire.writeHeader(V4, b);
        b.put((byte) (0x80 + version));
        b.put((byte) tag);
        b.putLong(req);
        return b.array();
    }

    @Test
    void decode_unknownTag_atVersion3_throwsMalformedNamingIt() {
        for (int tag : new int[] {0, 58, 100, 255}) {
            byte[] wire = headerTagReq(3, tag, 7, 64);
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, wire.length));
            assertTrue(e.getMessage().contains(String.valueOf(tag)), e.getMessage());
        }
    }

    /** From version 4, an op this build does not know (a newer peer's) is read as Unknown, its fields skipped, so the node can answer it. */
    @Test
    void decode_unknownTag_atVersion4_isAnUnknownRequest_withItsReq() throws MalformedMessageException {
        for (int tag : new int[] {0, 58, 100, 255}) {
            byte[] wire = headerTagReq(4, tag, 0x0102030405060708L, 64);
            ByteBuffer in = ByteBuffer.wrap(wire);
            FileMsg m = CODEC.decode(in);
            assertEquals(new FileOp.Unknown(0x0102030405060708L, tag), m.op());
            assertEquals(FileOp.Kind.CLIENT_REQUEST, m.op().kind(), "answered by the node whoever sent it");
            assertEquals(0, in.remaining(), "the unknown fields are skipped to the frame's end");
            assertEquals(4, m.wireVersion());
        }
        assertThrows(IllegalArgumentException.class, () -> encode(CODEC, new FileMsg(V4, new FileOp.Unknown(1, 200), 4)),
                "Unknown is never written");
    }

    @Test
    void roundTrip_failed_keepsEveryCode_atVersion5() throws MalformedMessageException {
        for (FailureCode code : FailureCode.values()) {
            byte[] wire = encode(CODEC, new FileMsg(V4, new Failed(3, code, "why"), 5));
            assertEquals(code.wire(), wire[H + 2 + 8], code.name());
            assertEquals(new Failed(3, code, "why"), decode(CODEC, wire, wire.length).op());
        }
    }

    /** The bytes of a failure of each code version 5 added, pinned: the code's byte follows the request id. */
    @Test
    void failed_codesOf5_arePinned() {
        String prefix = "047f000001b26e040a010203000101850f000000000000000f";
        assertEquals(prefix + "0c0003776879", hex(new Failed(15, FailureCode.BLOCK_MISSING, "why")));
        assertEquals(prefix + "0d0003776879", hex(new Failed(15, FailureCode.BLOCK_CORRUPT, "why")));
        assertEquals(prefix + "0e0003776879", hex(new Failed(15, FailureCode.IO_ERROR, "why")));
        assertEquals(prefix + "0b0003776879", hex(new Failed(15, FailureCode.INSUFFICIENT_STORAGE, "why")));
    }

    private static String hex(FileOp op) {
        return java.util.HexFormat.of().formatHex(encode(CODEC, new FileMsg(V4, op, 5)));
    }

    /**
     * Version 4 (0.2.x) has none of 5's codes: a 0.2.x peer is told what the failure was before (a block
     * no replica could serve UNAVAILABLE, a disk's I/O error INTERNAL); 5's codes at 4 are refused when read.
     */
    @Test
    void failed_codesOf5_atVersion4_areWrittenAsBefore_andRefusedWhenRead() {
        java.util.Map<FailureCode, FailureCode> before = java.util.Map.of(FailureCode.BLOCK_MISSING, FailureCode.UNAVAILABLE,
                FailureCode.BLOCK_CORRUPT, FailureCode.UNAVAILABLE, FailureCode.IO_ERROR, FailureCode.INTERNAL);
        before.forEach((code, old) -> {
            for (int version : new int[] {3, 4}) {
                FileMsg m = new FileMsg(V4, new Failed(3, code, "why"), version);
                byte[] wire = encode(CODEC, m);
                assertEquals(old.wire(), wire[H + 2 + 8], code + " at " + version);
                assertEquals(wire.length, CODEC.encodedSize(m));
                assertEquals(new Failed(3, old, "why"), assertDoesNotThrow(() -> decode(CODEC, wire, wire.length)).op());
                byte[] forged = wire.clone();
                forged[H + 2 + 8] = (byte) code.wire();
                MalformedMessageException e = assertThrows(MalformedMessageException.class,
                        () -> decode(CODEC, forged, forged.length));
                assertTrue(e.getMessage().contains(code + " in a version " + version + " message"), e.getMessage());
            }
        });
    }

    /** Version 3 has no INSUFFICIENT_STORAGE: a version-3 peer is told INTERNAL, what a full disk gave before; code 11 at 3 is refused. */
    @Test
    void failed_insufficientStorage_atVersion3_isWrittenInternal_andRefusedWhenRead() {
        byte[] wire = encode(CODEC, new FileMsg(V4, new Failed(3, FailureCode.INSUFFICIENT_STORAGE, "disk full"), 3));
        assertEquals(FailureCode.INTERNAL.wire(), wire[H + 2 + 8]);
        byte[] forged = wire.clone();
        forged[H + 2 + 8] = (byte) FailureCode.INSUFFICIENT_STORAGE.wire();
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, forged, forged.length));
        assertTrue(e.getMessage().contains("INSUFFICIENT_STORAGE in a version 3 message"), e.getMessage());
    }

    /** Version 3 has no UNSUPPORTED: a node answering a version-3 peer writes INVALID, and refuses code 10 at 3. */
    @Test
    void failed_unsupported_atVersion3_isWrittenInvalid_andRefusedWhenRead() {
        FileMsg at3 = new FileMsg(V4, new Failed(3, FailureCode.UNSUPPORTED, "why"), 3);
        byte[] wire = encode(CODEC, at3);
        assertEquals(FailureCode.INVALID.wire(), wire[H + 2 + 8]);
        assertEquals(wire.length, CODEC.encodedSize(at3));
        assertEquals(new Failed(3, FailureCode.INVALID, "why"), assertDoesNotThrow(() -> decode(CODEC, wire, wire.length)).op());
        byte[] forged = wire.clone();
        forged[H + 2 + 8] = (byte) FailureCode.UNSUPPORTED.wire();
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, forged, forged.length));
        assertTrue(e.getMessage().contains("UNSUPPORTED in a version 3 message"), e.getMessage());
    }

    @Test
    void decode_unknownFailureCode_throwsMalformedNamingIt() {
        byte[] good = encode(CODEC, new FileMsg(V4, new Failed(3, FailureCode.BUSY, "why")));
        for (int v : new int[] {15, 0x7f, 0xff}) {
            byte[] bad = good.clone();
            bad[H + 2 + 8] = (byte) v;
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, bad, bad.length));
            assertTrue(e.getMessage().contains("failure code " + v), e.getMessage());
        }
    }

    /** A message of the codec before the version byte (tag right after the header) is refused, saying so. */
    @Test
    void decode_messageFromBeforeVersions_isRefusedSayingSo() {
        byte[] v1 = encode(CODEC, new FileMsg(V4, new Done(1, "x")));
        byte[] old = new byte[v1.length - 1];
        System.arraycopy(v1, 0, old, 0, H);
        System.arraycopy(v1, H + 1, old, H, v1.length - H - 1);
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, old, old.length));
        assertTrue(e.getMessage().contains("before protocol versions") && e.getMessage().contains("byte 14"), e.getMessage());
        assertTrue(FileCodec.VERSION_BYTE > 52, "a node from before versions reads the byte as an unknown tag");
    }

    private static void assertBooleanChecked(FileOp op, int boolOffsetAfterReq) {
        byte[] wire = encode(CODEC, new FileMsg(V4, op));
        int at = H + 2 + 8 + boolOffsetAfterReq;
        assertTrue(wire[at] == 0 || wire[at] == 1, "offset does not point at the boolean of " + op);
        for (int v : new int[] {2, 0x7f, 0x80, 0xff}) {
            byte[] bad = wire.clone();
            bad[at] = (byte) v;
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, bad, bad.length),
                    op.getClass().getSimpleName() + " boolean " + v);
            assertTrue(e.getMessage().contains(String.valueOf(v)), e.getMessage());
        }
    }

    @Test
    void decode_booleanByteAboveOne_throwsMalformed() {
        assertBooleanChecked(new PutData(1, 2, 3, 4, true, new byte[] {9}), 12);
        assertBooleanChecked(new PutData(1, 2, 3, 4, false, new byte[0]), 12);
        assertBooleanChecked(new ManifestPart(1, true, 0, 5, new byte[5]), 0);
        assertBooleanChecked(new ListPart(1, List.of(), true), 2);
        assertBooleanChecked(new BackgroundStored(1, "b-1", true, "x"), 2 + 3);
        assertBooleanChecked(new VersionList(1, List.of(), true), 2);
        assertBooleanChecked(new SyncNames(1, List.of(), false), 2);
        assertBooleanChecked(new SyncLeaves(1, List.of(), true), 2);
        assertBooleanChecked(new SyncLeaves(1, List.of(new BucketLeaves(3, List.of(5L))), false), 2 + 4 + 2 + 8);
    }

    @Test
    void decode_unknownWriteConditionFlags_throwsMalformedNamingThem() {
        byte[] wire = encode(CODEC, new FileMsg(V4, new PutBegin(1, "n", 1, 1, "p", "all", true)));
        int at = H + 2 + 8 + 3 + 8 + 4 + 3 + 5;
        assertEquals(2, wire[at], "the flags of If-None-Match: *");
        for (int v : new int[] {4, 7, 0x80, 0xff}) {
            byte[] bad = wire.clone();
            bad[at] = (byte) v;
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, bad, bad.length));
            assertTrue(e.getMessage().contains("write condition flags " + v), e.getMessage());
        }
    }

    /** A string field announcing {@code len} bytes, followed by that many bytes of 'a'. */
    private static byte[] withString(int tag, int len) {
        byte[] wire = headerAndTag(tag, 8 + 2 + len);
        ByteBuffer b = ByteBuffer.wrap(wire, H + 2, 8 + 2 + len);
        b.putLong(7).putShort((short) len);
        while (b.hasRemaining()) {
            b.put((byte) 'a');
        }
        return wire;
    }

    @Test
    void decode_stringOfMaxLength_isAccepted() throws MalformedMessageException {
        byte[] wire = withString(31, FileCodec.MAX_STRING);
        VersionsReq g = (VersionsReq) decode(CODEC, wire, wire.length).op();
        assertEquals(FileCodec.MAX_STRING, g.name().getBytes(StandardCharsets.UTF_8).length);
    }

    /**
     * What the codec encodes it must decode. A client may send a name of up to MAX_STRING bytes; the
     * node's reply to a bad name (Uploads: Manifest.validateName's message) or a missing one
     * (Downloads: "no such file '...'") quotes that name inside a Failed error, which then exceeds
     * MAX_STRING: encode writes it, decode rejects it, and the client never gets its answer.
     */
    @Test
    void roundTrip_failedQuotingMaximalName_isDecodable() throws MalformedMessageException {
        String name = "n".repeat(FileCodec.MAX_STRING);
        String error = "no such file '" + name + "'";
        byte[] wire = encode(CODEC, new FileMsg(V4, new Failed(9, FailureCode.INVALID, error)));
        Failed decoded = (Failed) decode(CODEC, wire, wire.length).op();
        assertTrue(decoded.error().startsWith("no such file 'nnnn"), decoded.error());
        assertTrue(decoded.error().endsWith("..."), decoded.error());
        assertTrue(decoded.error().getBytes(StandardCharsets.UTF_8).length <= FileOp.MAX_TEXT_BYTES);
    }

    @Test
    void decode_oversizedString_throwsMalformedEvenWhenBytesArePresent() {
        for (int len : new int[] {FileCodec.MAX_STRING + 1, 0xFFFF}) {
            byte[] wire = withString(31, len);
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, wire.length));
            assertTrue(e.getMessage().contains(String.valueOf(len)), e.getMessage());
        }
    }

    /** GetData (tag 10) with an i32 data length of {@code len}, followed by {@code present} bytes. */
    private static byte[] getDataWithLength(int len, int present) {
        byte[] wire = headerAndTag(10, 8 + 8 + 4 + present);
        ByteBuffer.wrap(wire, H + 2, 20).putLong(7).putLong(0).putInt(len);
        return wire;
    }

    @Test
    void decode_oversizedOrNegativeDataLength_throwsMalformed() {
        for (int len : new int[] {FileCodec.MAX_DATA + 1, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
            byte[] wire = getDataWithLength(len, Math.max(0, Math.min(len, FileCodec.MAX_DATA + 1)));
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, wire.length));
            assertTrue(e.getMessage().contains(String.valueOf(len)), e.getMessage());
        }
    }

    @Test
    void decode_dataLengthBeyondMessage_throwsMalformed() {
        byte[] wire = getDataWithLength(100, 99);
        assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, wire.length));
    }

    @Test
    void decode_oversizedListCount_throwsMalformed() {
        for (int n : new int[] {FileCodec.MAX_LIST + 1, 0xFFFF}) {
            byte[] list = headerAndTag(11, 8 + 2 + 64);
            ByteBuffer.wrap(list, H + 2, 10).putLong(1).putShort((short) n);
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, list, list.length));
            assertTrue(e.getMessage().contains(String.valueOf(n)), e.getMessage());

            byte[] status = headerAndTag(12, 8 + 2 + 2 + 64);
            ByteBuffer.wrap(status, H + 2, 12).putLong(1).putShort((short) 0).putShort((short) n);
            assertThrows(MalformedMessageException.class, () -> decode(CODEC, status, status.length));
        }
    }

    @Test
    void decode_badHeader_throwsMalformed() {
        byte[] wire = encode(CODEC, new FileMsg(V4, new Done(1, "x")));
        byte[] badIp = wire.clone();
        badIp[0] = 5;
        assertThrows(MalformedMessageException.class, () -> decode(CODEC, badIp, badIp.length));
        byte[] badTransport = wire.clone();
        badTransport[H - 1] = (byte) 200;
        assertThrows(MalformedMessageException.class, () -> decode(CODEC, badTransport, badTransport.length));
    }

    @Test
    void decode_randomBytes_onlyMalformed() {
        Random r = new Random(2024);
        for (int i = 0; i < 3000; i++) {
            byte[] junk = new byte[r.nextInt(200)];
            r.nextBytes(junk);
            decodeOrMalformed(CODEC, junk);
        }
    }

    @Test
    void decode_validHeaderAndTagThenRandomBytes_onlyMalformed() {
        Random r = new Random(2025);
        for (int i = 0; i < 5000; i++) {
            byte[] wire = headerAndTag(1 + r.nextInt(25), r.nextInt(120));
            byte[] tail = new byte[wire.length - H - 2];
            r.nextBytes(tail);
            System.arraycopy(tail, 0, wire, H + 2, tail.length);
            decodeOrMalformed(CODEC, wire);
        }
    }

    @Test
    void decode_mutatedValidMessages_onlyMalformed() {
        Random r = new Random(2026);
        List<byte[]> valid = new ArrayList<>();
        for (FileOp op : samples()) {
            byte[] w = encode(CODEC, new FileMsg(V4, op));
            if (w.length < 10_000) {
                valid.add(w);
            }
        }
        for (int i = 0; i < 5000; i++) {
            byte[] bad = valid.get(r.nextInt(valid.size())).clone();
            for (int k = 1 + r.nextInt(3); k > 0; k--) {
                bad[r.nextInt(bad.length)] = (byte) r.nextInt(256);
            }
            decodeOrMalformed(CODEC, Arrays.copyOf(bad, r.nextInt(bad.length + 1)));
            decodeOrMalformed(CODEC, bad);
        }
    }
}
