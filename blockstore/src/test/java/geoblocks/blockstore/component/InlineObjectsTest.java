package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.ClientOp;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.core.BlockCodec;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.ClientOp.Committed;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.FetchBlock;
import geoblocks.blockstore.wire.PeerOp.FetchPaced;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.ClientOp.GetData;
import geoblocks.blockstore.wire.ClientOp.GetRange;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.ClientOp.MoveReq;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.ClientOp.PutData;
import geoblocks.blockstore.wire.ClientOp.PutProgress;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import geoblocks.net.NetAddress;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Small objects on a fake node at saopaulo: a put of at most inline-max bytes writes no block
 * anywhere (the fake's block store refuses every call), stores the bytes in the manifest, and is
 * acknowledged only once the regions its policy chose confirmed the published manifest; a get
 * answers with the manifest alone, a move has nothing to move.
 */
class InlineObjectsTest {
    private static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 9000);
    private static final byte[] DATA = "a small object: one manifest write, no block file\n".repeat(20)
            .getBytes(StandardCharsets.UTF_8);
    private static final String NAME = "bucket/small.txt";

    private static Uploads uploads(FakeNode node) {
        return new Uploads(node, new Replicator(node, ReplicationQueueStore.inMemory(), List.of(),
                new ReplicaCopy(node, null)));
    }

    /** Ops sent so far to {@code to} of type {@code type}. */
    private static <T extends FileOp> List<T> sentTo(FakeNode node, NetAddress to, Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Object[] s : node.sent) {
            if (s[0].equals(to) && type.isInstance(s[1])) {
                out.add(type.cast(s[1]));
            }
        }
        return out;
    }

    private static <T extends FileOp> List<T> sent(FakeNode node, Class<T> type) {
        return node.sent.stream().map(s -> s[1]).filter(type::isInstance).map(type::cast).toList();
    }

    /** The publications waiting for an answer, by peer region. */
    private static Map<String, Long> publications(FakeNode node) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Object[] s : node.sent) {
            if (s[1] instanceof ManifestPart p && p.publish()) {
                out.put(FakeNode.PEERS.get(((NetAddress) s[0]).getPort() - 7000), p.req());
            }
        }
        return out;
    }

    /** Puts DATA (uncompressed, one block) and returns the uploads. */
    private static Uploads put(FakeNode node, String ack, byte[] data) {
        Uploads up = uploads(node);
        up.onBegin(CLIENT, new PutBegin(1, NAME, data.length, 1 << 20, "tworandom", ack, false,
                Map.of("etag", "e1")));
        assertEquals(List.of(0L), sentTo(node, CLIENT, PutProgress.class).stream().map(PutProgress::durableBytes).toList(),
                "accepted");
        int crc = Checksums.crc32c(data);
        up.onData(CLIENT, new PutData(1, 0, 0, crc, true, data));
        return up;
    }

    private static void answer(FakeNode node, long req, FileOp op) {
        assertTrue(node.waiting.remove(req).onReply(op));
    }

    @Test
    void smallPut_storesTheBytesInTheManifest_writesNoBlock_andAcksOnceThePolicysRegionsHoldIt() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo", "dublin");
        put(node, ClientOp.ACK_ALL, DATA);

        assertEquals(1, node.placed.size(), "the policy is asked where the object's copies go");
        assertEquals("tworandom", node.placed.get(0).policy());
        assertTrue(sent(node, ReplicaData.class).isEmpty(), "no block copy to any region");
        Manifest m = node.manifests().find(NAME).orElseThrow();
        assertTrue(m.isInline());
        assertArrayEquals(DATA, m.inline().data());
        assertEquals(Map.of("etag", "e1"), m.meta());
        assertEquals(List.of(), m.blocks());
        assertEquals(Map.of(), node.manifests().placed(), "no block replica anywhere");

        Map<String, Long> pubs = publications(node);
        assertEquals(List.of("dublin", "mumbai", "seoul"), List.copyOf(pubs.keySet()), "published to every up peer");
        assertTrue(sentTo(node, CLIENT, Committed.class).isEmpty(), "not acknowledged before the chosen dublin confirms");
        answer(node, pubs.get("mumbai"), new Done(pubs.get("mumbai"), "stored"));
        answer(node, pubs.get("seoul"), new Failed(pubs.get("seoul"), FailureCode.INTERNAL, "seoul: disk full"));
        assertTrue(sentTo(node, CLIENT, Committed.class).isEmpty(), "still waiting for dublin");
        answer(node, pubs.get("dublin"), new Done(pubs.get("dublin"), "stored"));

        List<Committed> acks = sentTo(node, CLIENT, Committed.class);
        assertEquals(1, acks.size());
        assertEquals(0, node.inFlight.held(), "the upload's in-flight hold ended with its commit");
        assertEquals(m.version().id(), acks.get(0).version());
        assertEquals("stored; manifest not yet at [seoul]", acks.get(0).info(), "what a put of blocks says");
        assertTrue(sentTo(node, CLIENT, Failed.class).isEmpty());
    }

    @Test
    void aChosenRegionThatDoesNotConfirm_failsThePut_asAnUnknownOutcome() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo", "dublin");
        put(node, ClientOp.ACK_ALL, DATA);
        Map<String, Long> pubs = publications(node);
        answer(node, pubs.get("mumbai"), new Done(pubs.get("mumbai"), "stored"));
        answer(node, pubs.get("seoul"), new Done(pubs.get("seoul"), "stored"));
        // placement offers no stand-in (the fake answers with the regions already chosen)
        node.waiting.remove(pubs.get("dublin")).onTimeout("no answer in 15000 ms");

        assertTrue(sentTo(node, CLIENT, Committed.class).isEmpty(), "never acknowledged without dublin's copy");
        List<Failed> failed = sentTo(node, CLIENT, Failed.class);
        assertEquals(1, failed.size());
        assertEquals(FailureCode.OUTCOME_UNKNOWN, failed.get(0).code(), "the version exists here: " + failed.get(0).error());
        assertTrue(failed.get(0).error().contains("[dublin]"), "names the region without a copy: " + failed.get(0).error());
        assertEquals(FailureCode.OUTCOME_UNKNOWN, failed.get(0).code(), "the version exists here");
        assertEquals(0, node.inFlight.held(), "no hold left behind");
    }

    /**
     * A chosen region that refuses connections (killed, before its peers call it down: the publication fails at
     * once) has a region the policy allows stand in for it, as a block's copy moves: placement is asked for a
     * replacement, and the put is acknowledged once that region confirmed the manifest, saying where the copy went.
     * A stand-in that did not confirm either leaves the put failed as before.
     */
    @Test
    void aChosenRegionRefusingConnections_hasAnotherRegionThePolicyAllowsStandIn_andThePutSucceeds() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo", "dublin");
        put(node, ClientOp.ACK_ALL, DATA);
        Map<String, Long> pubs = publications(node);
        node.placeAt = List.of("seoul"); // what placement offers in dublin's place
        node.waiting.remove(pubs.get("dublin")).onTimeout("cannot reach 127.0.0.1:7000: connection refused");
        answer(node, pubs.get("mumbai"), new Done(pubs.get("mumbai"), "stored"));
        answer(node, pubs.get("seoul"), new Done(pubs.get("seoul"), "stored"));

        assertTrue(sentTo(node, CLIENT, Failed.class).isEmpty(), "no failure: " + sentTo(node, CLIENT, Failed.class));
        List<Committed> acks = sentTo(node, CLIENT, Committed.class);
        assertEquals(1, acks.size());
        assertEquals("stored; manifest not yet at [dublin]; dublin did not confirm it: its copy is at seoul", acks.get(0).info());
        assertEquals(2, node.placed.size());
        assertEquals("tworandom", node.placed.get(1).policy());
        assertEquals(List.of("saopaulo", "dublin"), node.placed.get(1).held(), "a replacement for the regions chosen");

        FakeNode other = new FakeNode();
        other.placeAt = List.of("saopaulo", "dublin");
        put(other, ClientOp.ACK_ALL, DATA);
        Map<String, Long> p2 = publications(other);
        other.placeAt = List.of("seoul");
        other.waiting.remove(p2.get("dublin")).onTimeout("cannot reach 127.0.0.1:7000: connection refused");
        answer(other, p2.get("mumbai"), new Done(p2.get("mumbai"), "stored"));
        other.waiting.remove(p2.get("seoul")).onTimeout("no answer in 15000 ms");
        assertTrue(sentTo(other, CLIENT, Committed.class).isEmpty(), "seoul, the stand-in, did not confirm either");
        assertEquals(FailureCode.OUTCOME_UNKNOWN, sentTo(other, CLIENT, Failed.class).get(0).code());
    }

    @Test
    void ackLocal_waitsForTheFirstChosenRegionOnly_evenWhenThisNodeWasNotChosen() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("mumbai", "dublin"); // this node holds no copy; dublin is the nearest chosen
        put(node, ClientOp.ACK_LOCAL, DATA);
        Map<String, Long> pubs = publications(node);
        node.waiting.remove(pubs.get("mumbai")).onTimeout("silent");
        answer(node, pubs.get("seoul"), new Done(pubs.get("seoul"), "stored"));
        assertTrue(sentTo(node, CLIENT, Committed.class).isEmpty());
        answer(node, pubs.get("dublin"), new Done(pubs.get("dublin"), "stored"));
        assertEquals(1, sentTo(node, CLIENT, Committed.class).size(), "mumbai's copy comes later (anti-entropy)");
        assertEquals(0, node.inFlight.held());

        FakeNode other = new FakeNode();
        other.placeAt = List.of("mumbai", "dublin");
        put(other, ClientOp.ACK_LOCAL, DATA);
        Map<String, Long> p2 = publications(other);
        answer(other, p2.get("mumbai"), new Done(p2.get("mumbai"), "stored"));
        answer(other, p2.get("seoul"), new Done(p2.get("seoul"), "stored"));
        other.waiting.remove(p2.get("dublin")).onTimeout("silent");
        assertTrue(sentTo(other, CLIENT, Committed.class).isEmpty(), "the first copy (dublin's) is missing");
        assertEquals(1, sentTo(other, CLIENT, Failed.class).size());
    }

    @Test
    void compressedSmallPut_isStoredDecompressed() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo");
        Uploads up = uploads(node);
        up.onBegin(CLIENT, new PutBegin(1, NAME, DATA.length, 1 << 20, "local", ClientOp.ACK_ALL, false, Map.of()));
        Compression.Encoded e = Compression.ZSTD.encode(DATA, DATA.length);
        assertEquals(BlockCodec.ZSTD, e.codec(), "repetitive text compresses");
        byte[] stored = e.stored();
        up.onData(CLIENT, new PutData(1, 0, 0, Checksums.crc32c(stored), true, stored, e.codec().id(), e.rawCrc()));
        Manifest m = node.manifests().find(NAME).orElseThrow();
        assertArrayEquals(DATA, m.inline().data(), "the original bytes, not the compressed ones");
        assertTrue(publications(node).size() == 3);
        publications(node).values().forEach(req -> answer(node, req, new Done(req, "stored")));
        assertEquals(1, sentTo(node, CLIENT, Committed.class).size());
    }

    @Test
    void smallPutInSeveralBlocks_joinsThemInOrder() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo");
        Uploads up = uploads(node);
        up.onBegin(CLIENT, new PutBegin(1, NAME, DATA.length, 256, "local", ClientOp.ACK_ALL, false, Map.of()));
        for (int b = 0, off = 0; off < DATA.length; b++, off += 256) {
            byte[] part = Arrays.copyOfRange(DATA, off, Math.min(DATA.length, off + 256));
            up.onData(CLIENT, new PutData(1, b, 0, Checksums.crc32c(part), true, part));
        }
        Manifest m = node.manifests().find(NAME).orElseThrow();
        assertArrayEquals(DATA, m.inline().data());
        assertEquals(256, m.blockSize());
    }

    @Test
    void aboveTheThreshold_orWithInlineOff_thePutStoresBlocksAsBefore() {
        FakeNode big = new FakeNode();
        big.settings = big.settings.withInlineMax(DATA.length - 1);
        big.placeAt = List.of("dublin");
        put(big, ClientOp.ACK_ALL, DATA);
        assertEquals(1, sentTo(big, big.addressOf("dublin"), ReplicaData.class).size(), "a block copy to dublin");
        assertFalse(big.manifests().find(NAME).isPresent(), "no manifest before the block is durable");

        FakeNode off = new FakeNode();
        off.settings = off.settings.withInlineMax(0);
        off.placeAt = List.of("dublin");
        put(off, ClientOp.ACK_ALL, new byte[] {1});
        assertEquals(1, sent(off, ReplicaData.class).size(), "inline-max = 0: even one byte goes to a block");
    }

    /** The manifest a client got in ManifestParts of request {@code req}. */
    private static Manifest manifestSent(FakeNode node, long req) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (ManifestPart p : sentTo(node, CLIENT, ManifestPart.class)) {
            if (p.req() == req) {
                b.writeBytes(p.data());
            }
        }
        return ManifestCodec.decode(b.toByteArray());
    }

    @Test
    void get_andRangedGet_ofAnInlineObject_answerWithTheManifestAlone() throws IOException {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo");
        put(node, ClientOp.ACK_ALL, DATA);
        Downloads d = new Downloads(node);
        d.onBegin(CLIENT, new GetBegin(2, NAME));
        Manifest got = manifestSent(node, 2);
        assertArrayEquals(DATA, got.inline().verified());
        d.onRange(CLIENT, new GetRange(3, NAME, "", "", "", 10, 19));
        assertArrayEquals(DATA, manifestSent(node, 3).inline().data(), "the client keeps the range's bytes");
        d.onRange(CLIENT, new GetRange(4, NAME, "", "hedged", "load", 0, 5));
        assertNotNull(manifestSent(node, 4).inline());
        d.onRange(CLIENT, new GetRange(5, NAME, "", "", "", DATA.length, DATA.length + 5));
        assertTrue(sentTo(node, CLIENT, Failed.class).stream().anyMatch(f -> f.req() == 5), "a range beyond the end");

        assertTrue(sent(node, GetData.class).isEmpty(), "no data message: the bytes came in the manifest");
        assertTrue(sent(node, FetchBlock.class).isEmpty() && sent(node, FetchPaced.class).isEmpty(), "no block fetch");
        assertEquals(3, node.waiting.size(), "nothing waits but the put's three publications");
    }

    @Test
    void move_ofAnInlineObject_hasNothingToMove() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo");
        put(node, ClientOp.ACK_ALL, DATA);
        int before = node.sent.size();
        new Migrations(node, null, x -> {}, 1_000_000_000L).onMove(CLIENT, new MoveReq(9, NAME, List.of("dublin")));
        List<Done> done = sentTo(node, CLIENT, Done.class);
        assertEquals(1, done.size());
        assertTrue(done.get(0).info().contains("stored inline"), done.get(0).info());
        assertEquals(before + 1, node.sent.size(), "no copy asked of any region");
    }
}
