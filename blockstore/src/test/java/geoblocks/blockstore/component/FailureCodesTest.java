package geoblocks.blockstore.component;

import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.wire.ClientOp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.CreateClaim;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.PeerOp.LookupManifest;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.ClientOp.PutData;
import geoblocks.net.NetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The code each producer puts on its {@link Failed} replies (the S3 gateway and the command line act
 * on it, through S3Error.forNode and ExitCodes): a fake node at saopaulo, one refusal per test.
 */
class FailureCodesTest {
    private static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 9000);
    private static final byte[] SMALL = "small".getBytes(StandardCharsets.UTF_8);

    private static Uploads uploads(FakeNode node) {
        return new Uploads(node, new Replicator(node, ReplicationQueueStore.inMemory(), List.of(),
                new ReplicaCopy(node, null)));
    }

    /** The one Failed the node sent to {@code to}. */
    private static Failed failedTo(FakeNode node, NetAddress to) {
        List<Failed> out = node.sent.stream().filter(s -> s[0].equals(to) && s[1] instanceof Failed)
                .map(s -> (Failed) s[1]).toList();
        assertEquals(1, out.size(), "one failure expected, got " + out);
        return out.get(0);
    }

    /** A name whose owner region (core.Owners) is {@code owner}. */
    private static String ownedBy(FakeNode node, String owner) {
        for (int i = 0; ; i++) {
            if (node.ownerOf("n" + i).equals(owner)) {
                return "n" + i;
            }
        }
    }

    private static Manifest stored(FakeNode node, String name) throws Exception {
        return node.versions().commit(Manifest.inline(name, "f00d", 1 << 20, "local", "saopaulo", 5,
                Version.legacy(5, "saopaulo"), Map.of(), SMALL));
    }

    @Test
    void putBegin_badBlockSize_isInvalid() {
        FakeNode node = new FakeNode();
        uploads(node).onBegin(CLIENT, new PutBegin(1, "a", 10, 0, "local"));
        assertEquals(FailureCode.INVALID, failedTo(node, CLIENT).code());
    }

    /** Past the admission queue's wait (10 s on the fake node): until then the upload waits, unrefused. */
    @Test
    void putBegin_transferMemoryFull_isBusy() {
        FakeNode node = new FakeNode();
        assertTrue(node.budget.tryReserve(node.budget.capacity()));
        uploads(node).onBegin(CLIENT, new PutBegin(1, "a", 10, 4, "local"));
        assertTrue(node.sent.isEmpty(), "it waits");
        node.now += 10_001 * FakeNode.MS;
        node.admission().expire(node.now);
        Failed f = failedTo(node, CLIENT);
        assertEquals(FailureCode.BUSY, f.code(), f.error());
    }

    /** The first block's buffer comes with the admission; the second waits for memory, then is refused as busy. */
    @Test
    void putData_blockBeyondTheMemory_isBusy() {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo");
        node.disk = new MemoryBlockStorage(() -> 0L);
        Uploads up = uploads(node);
        up.onBegin(CLIENT, new PutBegin(1, "a", 8, 4, "local"));
        byte[] block = {1, 2, 3, 4};
        up.onData(CLIENT, new PutData(1, 0, 0, Checksums.crc32c(block), true, block));
        assertTrue(node.budget.tryReserve(node.budget.capacity() - node.budget.used()));
        up.onData(CLIENT, new PutData(1, 1, 0, 0, false, new byte[2]));
        node.now += 10_001 * FakeNode.MS;
        node.admission().expire(node.now);
        Failed f = failedTo(node, CLIENT);
        assertEquals(FailureCode.BUSY, f.code(), f.error());
    }

    @Test
    void putIfAbsent_nameTakenHere_isExists() throws Exception {
        FakeNode node = new FakeNode();
        String name = ownedBy(node, "saopaulo");
        stored(node, name);
        uploads(node).onBegin(CLIENT, new PutBegin(1, name, 5, 1 << 20, "local", ClientOp.ACK_ALL, true));
        assertEquals(FailureCode.EXISTS, failedTo(node, CLIENT).code());
    }

    @Test
    void putIfAbsent_ownerDown_isUnavailable() {
        FakeNode node = new FakeNode();
        node.rtt = new RttTable("saopaulo", Map.of("mumbai", 300.0, "seoul", 400.0), Set.of("dublin"));
        uploads(node).onBegin(CLIENT, new PutBegin(1, ownedBy(node, "dublin"), 5, 1 << 20, "local", ClientOp.ACK_ALL,
                true));
        assertEquals(FailureCode.UNAVAILABLE, failedTo(node, CLIENT).code());
    }

    /** An inline put --if-absent whose owner dublin answers {@code answer} (null: goes silent). */
    private static Failed claimAnswered(Failed answer) {
        FakeNode node = new FakeNode();
        node.placeAt = List.of("saopaulo");
        Uploads up = uploads(node);
        String name = ownedBy(node, "dublin");
        up.onBegin(CLIENT, new PutBegin(1, name, SMALL.length, 1 << 20, "local", ClientOp.ACK_ALL, true));
        up.onData(CLIENT, new PutData(1, 0, 0, Checksums.crc32c(SMALL), true, SMALL));
        long claim = node.sent.stream().filter(s -> s[1] instanceof CreateClaim).map(s -> ((CreateClaim) s[1]).req())
                .findFirst().orElseThrow();
        if (answer == null) {
            node.waiting.remove(claim).onTimeout("no answer in 15000 ms");
        } else if (answer == UNSENT) {
            node.waiting.remove(claim).onUnsent("cannot reach 127.0.0.1:7000: finishConnect(..) failed: Connection refused");
        } else {
            assertTrue(node.waiting.remove(claim).onReply(new Failed(claim, answer.code(), answer.error())));
        }
        return failedTo(node, CLIENT);
    }

    @Test
    void putIfAbsent_ownerRefuses_keepsTheOwnersCode() {
        Failed f = claimAnswered(new Failed(0, FailureCode.EXISTS, "file 'x' already exists"));
        assertEquals(FailureCode.EXISTS, f.code());
        assertTrue(f.error().startsWith("upload of '"), "the coordinator's words around the owner's: " + f.error());
        assertEquals(FailureCode.UNAVAILABLE,
                claimAnswered(new Failed(0, FailureCode.UNAVAILABLE, "dublin cannot decide creates yet")).code());
    }

    @Test
    void putIfAbsent_ownerSilent_isOutcomeUnknown() {
        assertEquals(FailureCode.OUTCOME_UNKNOWN, claimAnswered(null).code());
    }

    /** Stands for "the claim never left": the owner refused the connection, so the network dropped it unsent. */
    private static final Failed UNSENT = new Failed(0, FailureCode.INTERNAL, "unsent");

    /**
     * The owner refuses connections (killed, before the detector calls it down): the claim never left this node, so
     * nothing was decided and the create fails at once as when the owner is known down, naming the owner and that it
     * is down; not as an unknown outcome.
     */
    @Test
    void putIfAbsent_ownerRefusingConnections_isUnavailable_namingTheOwnerAsDown() {
        Failed f = claimAnswered(UNSENT);
        assertEquals(FailureCode.UNAVAILABLE, f.code(), f.error());
        assertTrue(f.error().contains("its owner region dublin is down (cannot reach 127.0.0.1:7000"), f.error());
        assertTrue(f.error().contains("Connection refused"), f.error());
    }

    @Test
    void ownersClaim_nameTaken_isExists_andNotReady_isUnavailable() throws Exception {
        FakeNode node = new FakeNode();
        String name = ownedBy(node, "saopaulo");
        stored(node, name);
        NetAddress dublin = node.addressOf("dublin");
        byte[] draft = ManifestCodec.encode(Manifest.inline(name, "beef", 1 << 20, "local", "dublin", 9,
                Version.legacy(9, "dublin"), Map.of(), SMALL));
        new ReplicaServer(node).onClaim(dublin, new CreateClaim(7, 0, draft.length, draft));
        assertEquals(FailureCode.EXISTS, failedTo(node, dublin).code());

        FakeNode fresh = new FakeNode();
        fresh.notReady = "saopaulo started with no manifests";
        new ReplicaServer(fresh).onClaim(dublin, new CreateClaim(7, 0, draft.length, draft));
        assertEquals(FailureCode.UNAVAILABLE, failedTo(fresh, dublin).code());
    }

    @Test
    void lookup_unknownName_isNotFound() {
        FakeNode node = new FakeNode();
        NetAddress dublin = node.addressOf("dublin");
        new ReplicaServer(node).onLookup(dublin, new LookupManifest(3, "nothing"));
        assertEquals(FailureCode.NOT_FOUND, failedTo(node, dublin).code());
    }

    @Test
    void get_nameNowhere_isNotFound_andABadVersionIdIsInvalid() {
        FakeNode node = new FakeNode();
        Downloads d = new Downloads(node);
        d.onBegin(CLIENT, new GetBegin(1, "nothing"));
        for (Long req : List.copyOf(node.waiting.keySet())) { // every peer asked says it has no such file
            node.waiting.remove(req).onReply(new Failed(req, FailureCode.NOT_FOUND, "no such file"));
        }
        assertEquals(FailureCode.NOT_FOUND, failedTo(node, CLIENT).code());

        FakeNode other = new FakeNode();
        new Downloads(other).onBegin(CLIENT, new GetBegin(2, "a", "not-a-version"));
        assertEquals(FailureCode.INVALID, failedTo(other, CLIENT).code());
    }
}
