package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockCollector;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.Committed;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.ClientOp.PutData;
import geoblocks.blockstore.wire.ClientOp.PutProgress;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.PeerOp;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import geoblocks.blockstore.wire.PeerOp.ReplicaStored;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Uploads of blocks on a fake node at saopaulo whose policy places every block at saopaulo and
 * dublin: the client hears progress only for blocks durable on both (ack all) or on the first copy
 * (ack local, the other queued for the replicator), Committed only after the manifest is stored and
 * published, and Failed, with no version made, when a replica fails or a block's checksum is wrong.
 */
class UploadsTest {
    private static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 9000);
    private static final int BLOCK = 64 * 1024;
    private static final int SIZE = 2 * BLOCK + 100;

    private final FakeNode node = new FakeNode();
    private final Replicator replicator = new Replicator(node, ReplicationQueueStore.inMemory(), List.of(),
            new ReplicaCopy(node, null));
    private final Uploads uploads = new Uploads(node, replicator);
    private final byte[] data = new byte[SIZE];

    UploadsTest() {
        new Random(7).nextBytes(data);
        node.disk = new MemoryBlockStorage(() -> 1_000L);
        node.placeAt = List.of("saopaulo", "dublin");
    }

    private void begin(String ack) {
        uploads.onBegin(CLIENT, new PutBegin(1, "f.bin", SIZE, BLOCK, "tworandom", ack));
        assertEquals(List.of(new PutProgress(1, 0)), sent(PutProgress.class), "accepted");
    }

    /** Sends block {@code b} whole, with its checksum (or a wrong one). */
    private void block(int b, boolean rightCrc) {
        byte[] part = Arrays.copyOfRange(data, b * BLOCK, Math.min(SIZE, (b + 1) * BLOCK));
        int crc = Checksums.crc32c(part) ^ (rightCrc ? 0 : 1);
        uploads.onData(CLIENT, new PutData(1, b, 0, crc, true, part));
    }

    private <T extends FileOp> List<T> sent(Class<T> type) {
        return node.sent.stream().map(s -> s[1]).filter(type::isInstance).map(type::cast).toList();
    }

    /** The replica copies waiting for an answer (their first chunks: a block may take several). */
    private List<ReplicaData> unanswered() {
        List<ReplicaData> out = new ArrayList<>();
        for (ReplicaData d : sent(ReplicaData.class)) {
            if (d.offset() == 0 && node.waiting.containsKey(d.req())) {
                out.add(d);
            }
        }
        return out;
    }

    private List<Long> progress() {
        return sent(PutProgress.class).stream().map(PutProgress::durableBytes).toList();
    }

    /** Answers every publication waiting with Done; returns how many. */
    private int confirmPublications() {
        int n = 0;
        for (ManifestPart p : sent(ManifestPart.class)) {
            Pending.Waiter w = p.publish() ? node.waiting.remove(p.req()) : null;
            if (w != null) {
                w.onReply(new Done(p.req(), "stored"));
                n++;
            }
        }
        return n;
    }

    @Test
    void ackAll_progressCountsOnlyBlocksDurableOnEveryReplica_andCommittedFollowsThePublication() {
        begin(ClientOp.ACK_ALL);
        for (int b = 0; b < 3; b++) {
            block(b, true);
        }
        assertEquals(3, unanswered().size(), "one replica message per block to dublin");
        unanswered().forEach(d -> assertFalse(d.background(), "a replica the client waits for is foreground"));
        assertEquals(List.of(0L), progress(), "stored here, not yet at dublin: nothing is durable everywhere");
        ReplicaData second = unanswered().get(1);
        node.waiting.remove(second.req()).onReply(new ReplicaStored(second.req(), second.blockId()));
        assertEquals(List.of(0L), progress(), "block 1 alone is not a durable prefix");
        ReplicaData first = unanswered().get(0);
        node.waiting.remove(first.req()).onReply(new ReplicaStored(first.req(), first.blockId()));
        assertEquals(List.of(0L, 2L * BLOCK), progress(), "blocks 0 and 1");
        ReplicaData last = unanswered().get(0);
        node.waiting.remove(last.req()).onReply(new ReplicaStored(last.req(), last.blockId()));
        assertEquals((long) SIZE, progress().get(progress().size() - 1));

        Manifest m = node.manifests().find("f.bin").orElseThrow();
        m.blocks().forEach(ref -> assertEquals(List.of("saopaulo", "dublin"), ref.replicas()));
        assertTrue(sent(Committed.class).isEmpty(), "not before the peers answered the publication");
        assertEquals(3, confirmPublications(), "published to every peer that is up");
        assertEquals(List.of(new Committed(1, m.version().id(), "stored")), sent(Committed.class));
        for (int b = 0; b < 3; b++) {
            assertTrue(node.disk.contains(BlockId.ofFileBlock(m.fileId(), b)), "block " + b + " stored here");
        }
        assertEquals(0, replicator.size(), "ack all owes no copies");
        assertEquals(0, node.inFlight.held(), "committed: its blocks are named by a manifest now");
        assertEquals(0, node.budget.used(), "every buffer returned");
    }

    /**
     * An upload in progress keeps its blocks at the other regions that hold them: every hold interval they are told
     * to keep its file (HoldBlocks), however long the upload runs and whether or not it still sends them blocks;
     * once it has ended (here: failed), the keep-alives stop.
     */
    @Test
    void anUploadInProgress_tellsTheRegionsHoldingItsBlocksToKeepThem_untilItEnds() {
        Uploads slow = new Uploads(node, replicator, 60_000 * FakeNode.MS);
        slow.onBegin(CLIENT, new PutBegin(1, "f.bin", SIZE, BLOCK, "tworandom", ClientOp.ACK_ALL));
        byte[] part = Arrays.copyOfRange(data, 0, BLOCK);
        slow.onData(CLIENT, new PutData(1, 0, 0, Checksums.crc32c(part), true, part));
        ReplicaData d = unanswered().get(0);
        node.waiting.remove(d.req()).onReply(new ReplicaStored(d.req(), d.blockId()));
        String fileId = BlockCollector.FileBlock.of(BlockId.of(d.blockId())).orElseThrow().fileId();
        slow.hold(node.now + 59_000 * FakeNode.MS);
        assertTrue(sent(PeerOp.HoldBlocks.class).isEmpty(), "not before the interval");
        for (int i = 1; i <= 3; i++) { // three intervals with no block sent: the upload stalls longer than a grace
            slow.hold(node.now + i * 60_000 * FakeNode.MS);
        }
        List<Object[]> holds = node.sent.stream().filter(x -> x[1] instanceof PeerOp.HoldBlocks)
                .toList();
        assertEquals(3, holds.size(), "one keep-alive per interval");
        for (Object[] h : holds) {
            assertEquals(node.addressOf("dublin"), h[0], "to dublin, which holds block 0 (not to this region)");
            assertEquals(List.of(fileId), ((PeerOp.HoldBlocks) h[1]).fileIds());
        }
        byte[] second = Arrays.copyOfRange(data, BLOCK, 2 * BLOCK);
        slow.onData(CLIENT, new PutData(1, 1, 0, Checksums.crc32c(second) ^ 1, true, second)); // a bad block: it fails
        assertEquals(1, sent(Failed.class).size());
        slow.hold(node.now + 10 * 60_000 * FakeNode.MS);
        assertEquals(3, node.sent.stream().filter(x -> x[1] instanceof PeerOp.HoldBlocks).count(),
                "no keep-alive for an upload that ended");
    }

    @Test
    void aReplicaThatFails_failsTheUpload_withItsCode_andNoVersionIsMade() {
        begin(ClientOp.ACK_ALL);
        block(0, true);
        ReplicaData d = unanswered().get(0);
        node.waiting.remove(d.req()).onReply(new Failed(d.req(), FailureCode.BUSY, "dublin: node busy"));
        List<Failed> failed = sent(Failed.class);
        assertEquals(1, failed.size());
        assertEquals(FailureCode.BUSY, failed.get(0).code(), "the replica's code reaches the client");
        assertTrue(failed.get(0).error().startsWith("upload of 'f.bin' failed: replica of block 0 at dublin: "),
                failed.get(0).error());
        block(1, true);
        assertEquals(1, sent(ReplicaData.class).stream().filter(r -> r.offset() == 0).count(),
                "data after the failure is ignored");
        assertTrue(node.manifests().find("f.bin").isEmpty());
        assertTrue(sent(Committed.class).isEmpty());
        assertEquals(0, node.inFlight.held(), "its blocks are garbage after the grace");
        assertEquals(0, node.budget.used());
    }

    /**
     * With ack all, the client hears Committed only once a region other than the coordinator confirmed
     * the manifest: else the coordinator's metadata disk would hold the only reference to blocks stored
     * elsewhere, and losing it would leave them to those regions' GC. Any one region is enough: anti-entropy
     * brings the manifest from it to a block holder that missed it, before that holder's GC may run.
     */
    @Test
    void ackAll_committedOnlyOnceAnotherRegionStoredTheManifest() {
        begin(ClientOp.ACK_ALL);
        for (int b = 0; b < 3; b++) {
            block(b, true);
            ReplicaData d = unanswered().get(0);
            node.waiting.remove(d.req()).onReply(new ReplicaStored(d.req(), d.blockId()));
        }
        assertEquals(3, answerPublications(to -> new Failed(0, FailureCode.INTERNAL, to + ": disk error")));
        assertTrue(sent(Committed.class).isEmpty(), "no region but the coordinator holds the manifest");
        List<Failed> failed = sent(Failed.class);
        assertEquals(1, failed.size());
        assertEquals(FailureCode.OUTCOME_UNKNOWN, failed.get(0).code(), "the version exists here: it may still win");
        assertTrue(failed.get(0).error().contains("[dublin] hold its blocks"), "names where the blocks are: " + failed.get(0).error());

        // dublin, which holds the block, silent; mumbai confirms: one other copy of the reference is enough
        begin2();
        answerPublications(to -> to.equals("mumbai") ? null : new Failed(0, FailureCode.INTERNAL, to + ": busy"));
        List<Committed> ok = sent(Committed.class);
        assertEquals(1, ok.size());
        assertTrue(ok.get(0).info().contains("manifest not yet at") && ok.get(0).info().contains("dublin"), ok.get(0).info());
    }

    /** Answers each publication waiting with what {@code answer} gives for its region (null: Done); returns how many. */
    private int answerPublications(Function<String, Failed> answer) {
        int n = 0;
        for (ManifestPart p : sent(ManifestPart.class)) {
            Pending.Waiter w = p.publish() ? node.waiting.remove(p.req()) : null;
            if (w == null) {
                continue;
            }
            NetAddress to = (NetAddress) node.sent.stream().filter(x -> x[1] == p).findFirst().orElseThrow()[0];
            String region = FakeNode.PEERS.stream().filter(r -> node.addressOf(r).equals(to)).findFirst().orElseThrow();
            Failed f = answer.apply(region);
            w.onReply(f == null ? new Done(p.req(), "stored") : new Failed(p.req(), f.code(), f.error()));
            n++;
        }
        return n;
    }

    /** A second upload, g.bin (req 2), of one block at saopaulo and dublin, its replica answered. */
    private void begin2() {
        uploads.onBegin(CLIENT, new PutBegin(2, "g.bin", BLOCK, BLOCK, "tworandom", ClientOp.ACK_ALL));
        byte[] part = Arrays.copyOfRange(data, 0, BLOCK);
        uploads.onData(CLIENT, new PutData(2, 0, 0, Checksums.crc32c(part), true, part));
        ReplicaData d = unanswered().get(0);
        node.waiting.remove(d.req()).onReply(new ReplicaStored(d.req(), d.blockId()));
    }

    /**
     * A replica target that stops answering (a node stopping for an upgrade, before its peers call it
     * down) no longer fails the upload: the copy goes, once, to another region the policy allows, and
     * the manifest names that region; if the second target is silent too, the upload fails.
     */
    @Test
    void aReplicaTargetThatFallsSilent_hasTheCopyMovedOnce_andTheManifestNamesTheNewRegion() {
        begin(ClientOp.ACK_ALL);
        block(0, true);
        ReplicaData toDublin = unanswered().get(0);
        assertEquals(node.addressOf("dublin"), node.sent.stream().filter(x -> x[1] == toDublin).findFirst().orElseThrow()[0]);
        node.placeAt = List.of("mumbai");
        node.waiting.remove(toDublin.req()).onTimeout("cannot reach dublin: connection refused");
        assertTrue(sent(Failed.class).isEmpty(), "the upload goes on");
        assertEquals(List.of("saopaulo", "dublin"), node.placed.get(node.placed.size() - 1).held(),
                "a replacement: neither the block's other copy nor the silent region");
        ReplicaData toMumbai = unanswered().get(0);
        assertEquals(node.addressOf("mumbai"), node.sent.stream().filter(x -> x[1] == toMumbai).findFirst().orElseThrow()[0]);
        node.waiting.remove(toMumbai.req()).onReply(new ReplicaStored(toMumbai.req(), toMumbai.blockId()));
        for (int b = 1; b < 3; b++) {
            node.placeAt = List.of("saopaulo", "dublin");
            block(b, true);
            ReplicaData d = unanswered().get(0);
            node.waiting.remove(d.req()).onReply(new ReplicaStored(d.req(), d.blockId()));
        }
        Manifest m = node.manifests().find("f.bin").orElseThrow();
        assertEquals(List.of("saopaulo", "mumbai"), m.blocks().get(0).replicas(), "block 0 lives where it was copied");
        assertEquals(List.of("saopaulo", "dublin"), m.blocks().get(1).replicas());
        confirmPublications();
        assertEquals(1, sent(Committed.class).size());

        // the second target silent as well: the upload fails, UNAVAILABLE
        uploads.onBegin(CLIENT, new PutBegin(2, "g.bin", SIZE, BLOCK, "tworandom", ClientOp.ACK_ALL));
        byte[] part = Arrays.copyOfRange(data, 0, BLOCK);
        node.placeAt = List.of("saopaulo", "dublin");
        uploads.onData(CLIENT, new PutData(2, 0, 0, Checksums.crc32c(part), true, part));
        node.placeAt = List.of("mumbai");
        ReplicaData again = unanswered().get(0);
        node.waiting.remove(again.req()).onTimeout("cannot reach dublin");
        ReplicaData moved = unanswered().get(0);
        node.waiting.remove(moved.req()).onTimeout("cannot reach mumbai");
        List<Failed> failed = sent(Failed.class);
        assertEquals(1, failed.size());
        assertEquals(FailureCode.UNAVAILABLE, failed.get(0).code(), failed.get(0).error());
    }

    @Test
    void ackLocal_acknowledgesOnTheFirstCopy_andQueuesTheOthersBeforeTheManifest() {
        begin(ClientOp.ACK_LOCAL);
        for (int b = 0; b < 3; b++) {
            block(b, true);
        }
        assertEquals((long) SIZE, progress().get(progress().size() - 1), "durable here: that is enough");
        Manifest m = node.manifests().find("f.bin").orElseThrow();
        m.blocks().forEach(ref -> assertEquals(List.of("saopaulo", "dublin"), ref.replicas(),
                "the manifest names every region the policy chose"));
        assertEquals(Map.of(0, List.of("dublin"), 1, List.of("dublin"), 2, List.of("dublin")), replicator.pending(m));
        List<ReplicaData> copies = unanswered();
        assertEquals(3, copies.size(), "the replicator started the owed copies");
        copies.forEach(c -> assertTrue(c.background(), "owed copies are background traffic"));
        assertEquals(3, confirmPublications());
        assertEquals(1, sent(Committed.class).size());
    }

    @Test
    void aBlockWhoseChecksumIsWrong_failsTheUpload_asInvalid() {
        begin(ClientOp.ACK_ALL);
        block(0, false);
        List<Failed> failed = sent(Failed.class);
        assertEquals(1, failed.size());
        assertEquals(FailureCode.INVALID, failed.get(0).code());
        assertTrue(unanswered().isEmpty(), "nothing was sent anywhere");
        assertTrue(node.placed.isEmpty(), "nor placed");
    }

    @Test
    void aClientThatFallsSilent_hasItsUploadFailed() {
        begin(ClientOp.ACK_ALL);
        block(0, true);
        uploads.expire(node.now + 10 * FakeNode.MS, 10 * FakeNode.MS);
        assertTrue(sent(Failed.class).isEmpty(), "not silent long enough");
        uploads.expire(node.now + 11 * FakeNode.MS, 10 * FakeNode.MS);
        List<Failed> failed = sent(Failed.class);
        assertEquals(1, failed.size());
        assertEquals(FailureCode.INVALID, failed.get(0).code(), "the client went silent: " + failed.get(0).error());
        assertTrue(node.manifests().find("f.bin").isEmpty());
    }

    @Test
    void aBadRequest_isRefusedAtOnce_withWhatWasWrong() {
        uploads.onBegin(CLIENT, new PutBegin(2, "f.bin", SIZE, BLOCK, "tworandom", "sometimes"));
        uploads.onBegin(CLIENT, new PutBegin(3, "f.bin", -1, BLOCK, "tworandom", ClientOp.ACK_ALL));
        uploads.onBegin(CLIENT, new PutBegin(4, "f.bin", SIZE, 0, "tworandom", ClientOp.ACK_ALL));
        List<Failed> failed = sent(Failed.class);
        assertEquals(3, failed.size());
        failed.forEach(f -> assertEquals(FailureCode.INVALID, f.code()));
        assertTrue(failed.get(0).error().contains("ack must be all or local, was 'sometimes'"), failed.get(0).error());
        assertTrue(failed.get(1).error().contains("was -1"), failed.get(1).error());

        assertTrue(sent(PutProgress.class).isEmpty());
    }
}
