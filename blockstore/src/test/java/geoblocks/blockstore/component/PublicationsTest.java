package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.ClientOp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.ClientOp.Committed;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.ClientOp.PutData;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Manifest publications under load, on a fake node at saopaulo: while a publication to a peer is
 * unanswered, the next ones to that peer wait and then leave together as one batch, which the
 * peer stores in one write and answers once; each put is acknowledged as before.
 */
class PublicationsTest {
    private static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 9000);
    private static final byte[] DATA = "small".repeat(40).getBytes(StandardCharsets.UTF_8);

    /** An inline put of DATA as {@code name}, request {@code req}, placed at saopaulo and dublin. */
    private static void put(FakeNode node, long req, String name) {
        Uploads up = new Uploads(node, new Replicator(node, ReplicationQueueStore.inMemory(), List.of(),
                new ReplicaCopy(node, null)));
        up.onBegin(CLIENT, new PutBegin(req, name, DATA.length, 1 << 20, "tworandom", ClientOp.ACK_ALL, false, Map.of()));
        up.onData(CLIENT, new PutData(req, 0, 0, Checksums.crc32c(DATA), true, DATA));
    }

    /** Publications sent to {@code peer} so far: request id and bytes (one part each: they are small). */
    private static List<ManifestPart> publications(FakeNode node, String peer) {
        List<ManifestPart> out = new ArrayList<>();
        for (Object[] s : node.sent) {
            if (s[0].equals(node.addressOf(peer)) && s[1] instanceof ManifestPart p && p.publish()) {
                out.add(p);
            }
        }
        return out;
    }

    private static List<Long> committed(FakeNode node) {
        List<Long> out = new ArrayList<>();
        for (Object[] s : node.sent) {
            if (s[0].equals(CLIENT) && s[1] instanceof Committed c) {
                out.add(c.req());
            }
        }
        return out;
    }

    private static void answerAll(FakeNode node, String peer, ManifestPart p, FileOp reply) {
        assertTrue(node.waiting.remove(p.req()).onReply(reply));
    }

    @Test
    void whileAPeerIsBusy_laterPublicationsLeaveAsOneBatch_andEveryPutIsAcknowledged() throws IOException {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo", "dublin");
        put(node, 1, "b/one");
        put(node, 2, "b/two");
        put(node, 3, "b/three");
        for (String peer : FakeNode.PEERS) {
            List<ManifestPart> sent = publications(node, peer);
            assertEquals(1, sent.size(), "one publication in flight to " + peer + ", the others wait");
            assertEquals("b/one", ManifestCodec.decodeAny(sent.get(0).data()).name());
        }
        for (String peer : List.of("mumbai", "seoul")) {
            ManifestPart first = publications(node, peer).get(0);
            answerAll(node, peer, first, new Done(first.req(), "stored"));
        }
        ManifestPart first = publications(node, "dublin").get(0);
        assertEquals(List.of(), committed(node), "dublin, chosen by the policy, has not confirmed");
        answerAll(node, "dublin", first, new Done(first.req(), "stored"));
        assertEquals(List.of(1L), committed(node));

        for (String peer : FakeNode.PEERS) {
            List<ManifestPart> sent = publications(node, peer);
            assertEquals(2, sent.size(), "the waiting two left together to " + peer);
            byte[] batch = sent.get(1).data();
            assertTrue(ManifestCodec.isBatch(batch));
            assertEquals(List.of("b/two", "b/three"), ManifestCodec.decodeBatch(batch).stream().map(ManifestHistory::name).toList());
        }
        for (String peer : FakeNode.PEERS) {
            ManifestPart batch = publications(node, peer).get(1);
            answerAll(node, peer, batch, new Done(batch.req(), "stored"));
        }
        assertEquals(List.of(1L, 2L, 3L), committed(node), "one answer acknowledged both puts of the batch");
        assertTrue(node.waiting.isEmpty());
    }

    @Test
    void aRefusedBatch_failsEachOfItsPuts_asAnUnknownOutcome_whenThePeerWasRequired() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo", "dublin");
        put(node, 1, "b/one");
        put(node, 2, "b/two");
        put(node, 3, "b/three");
        for (String peer : FakeNode.PEERS) {
            ManifestPart p = publications(node, peer).get(0);
            answerAll(node, peer, p, new Done(p.req(), "stored"));
        }
        for (String peer : List.of("mumbai", "seoul")) {
            ManifestPart p = publications(node, peer).get(1);
            answerAll(node, peer, p, new Done(p.req(), "stored"));
        }
        ManifestPart batch = publications(node, "dublin").get(1);
        answerAll(node, "dublin", batch, new Failed(batch.req(), FailureCode.BUSY, "dublin: node busy"));
        List<Failed> failed = new ArrayList<>();
        for (Object[] s : node.sent) {
            if (s[0].equals(CLIENT) && s[1] instanceof Failed f) {
                failed.add(f);
            }
        }
        assertEquals(List.of(1L), committed(node));
        assertEquals(List.of(2L, 3L), failed.stream().map(Failed::req).toList());
        assertTrue(failed.stream().allMatch(f -> f.code() == FailureCode.OUTCOME_UNKNOWN));
    }

    @Test
    void aPeer_storesABatchInOneWrite_andAnswersOnce() throws IOException {
        FakeNode node = new FakeNode();
        NetAddress dublin = node.addressOf("dublin");
        List<byte[]> items = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            items.add(ManifestCodec.encode(Manifest.inline("b/k" + i, "f" + i, 1 << 20, "local", "dublin", 9,
                    new Version(100 + i, "dublin"), Map.of(), DATA)));
        }
        byte[] batch = ManifestCodec.encodeBatch(items);
        long writes = node.manifests().writes();
        new ReplicaServer(node).onPublish(dublin, new ManifestPart(5, true, 0, batch.length, batch));
        assertEquals(writes + 1, node.manifests().writes(), "one durable write for the batch");
        for (int i = 0; i < 3; i++) {
            assertTrue(node.manifests().find("b/k" + i).isPresent());
        }
        List<FileOp> replies = node.sent.stream().filter(s -> s[0].equals(dublin)).map(s -> (FileOp) s[1]).toList();
        assertEquals(1, replies.size());
        assertTrue(replies.get(0) instanceof Done d && d.req() == 5);

        byte[] bad = batch.clone();
        bad[7] = 9; // announces 9 items
        new ReplicaServer(node).onPublish(dublin, new ManifestPart(6, true, 0, bad.length, bad));
        FileOp last = (FileOp) node.sent.get(node.sent.size() - 1)[1];
        assertTrue(last instanceof Failed f && f.req() == 6 && f.code() == FailureCode.INVALID, String.valueOf(last));
        assertFalse(node.manifests().find("b/k9").isPresent());
    }
}
