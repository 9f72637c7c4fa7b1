package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockFile;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.MoveRecord;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaMoveStore;
import geoblocks.blockstore.port.BlockStorePort.DeleteBlocks;
import geoblocks.blockstore.core.MoveCopies;
import geoblocks.blockstore.wire.ClientOp.PutProgress;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.PeerOp.DropBlocks;
import geoblocks.blockstore.wire.PeerOp.HoldBlocks;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.PeerOp.MoveCopy;
import geoblocks.blockstore.wire.ClientOp.MoveReq;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Moves kept in the metadata engine: a move is recorded before its first copy, a coordinator
 * restarted mid-move (a new {@link Migrations} over the same engine) resumes it once its targets are
 * up and completes it (copies, new manifest, old copies dropped, record removed), a move already
 * committed before the restart goes straight to publishing and dropping, and the targets of a
 * running move are told to keep its copies.
 */
class MigrationsTest {
    private static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 9999);
    private static final List<String> TARGETS = List.of("dublin", "mumbai");
    private final MemoryMetaEngine engine = new MemoryMetaEngine();
    private final List<DeleteBlocks> deletes = new ArrayList<>();

    private static Manifest file() {
        Version v = new Version(HybridClock.of(500, 0), "seoul");
        return new Manifest("f", "fmv", 20, 10, "local", "seoul", 500, List.of(
                new Manifest.BlockRef(10, 1, List.of("seoul")), new Manifest.BlockRef(10, 2, List.of("seoul"))), v, 0, false);
    }

    private FakeNode node() throws IOException {
        return new FakeNode().withManifests(new ManifestStore(engine));
    }

    private Migrations migrations(FakeNode node) {
        return new Migrations(node, new BlockPull(node, null), deletes::add, 1000 * FakeNode.MS);
    }

    /** Answers every request of {@code type} sent and not answered yet with Done; returns how many. */
    private static int answer(FakeNode node, Class<? extends FileOp> type) {
        int n = 0;
        for (Object[] s : new ArrayList<>(node.sent)) {
            FileOp op = (FileOp) s[1];
            Pending.Waiter w = type.isInstance(op) ? node.waiting.remove(op.req()) : null;
            if (w != null) {
                w.onReply(new Done(op.req(), "ok"));
                n++;
            }
        }
        return n;
    }

    /** Answers every {@link MoveCopy} sent and not answered yet with Failed; returns how many. */
    private static int refuseCopies(FakeNode node) {
        return refuseCopies(node, FailureCode.UNAVAILABLE);
    }

    private static int refuseCopies(FakeNode node, FailureCode code) {
        int n = 0;
        for (Object[] s : new ArrayList<>(node.sent)) {
            FileOp op = (FileOp) s[1];
            Pending.Waiter w = op instanceof MoveCopy ? node.waiting.remove(op.req()) : null;
            if (w != null) {
                w.onReply(new FileOp.Failed(op.req(), code, "refused"));
                n++;
            }
        }
        return n;
    }

    private static <T> List<T> sent(FakeNode node, Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Object[] s : node.sent) {
            if (type.isInstance(s[1])) {
                out.add(type.cast(s[1]));
            }
        }
        return out;
    }

    private List<MoveRecord> kept() throws IOException {
        return new MetaMoveStore(engine).load().moves();
    }

    @Test
    void restartMidMove_resumesFromTheEngineOnceTargetsAreUp_andCompletes() throws IOException {
        FakeNode first = node();
        first.manifests().save(file());
        Migrations before = migrations(first);
        before.onMove(CLIENT, new MoveReq(7, "f", TARGETS));
        assertEquals(4, sent(first, MoveCopy.class).size(), "2 blocks to 2 targets");
        assertEquals(List.of(new MoveRecord(file(), TARGETS, first.wallMillis())), kept(), "kept before any copy");
        assertTrue(first.inFlight().inFlight("fmv", first.now));
        assertEquals(1, before.moves());
        // two copies land, then the coordinator dies

        FakeNode node = node();
        node.rtt = new RttTable("saopaulo", Map.of("dublin", 100.0, "seoul", 400.0), Set.of("mumbai"));
        Migrations after = migrations(node);
        assertEquals(1, after.moves());
        assertTrue(node.inFlight().inFlight("fmv", node.now), "its copies are in flight for the collector");
        after.tick(node.now);
        assertEquals(0, sent(node, MoveCopy.class).size(), "waits while a target is down");
        node.rtt = first.rtt;
        after.tick(node.now);
        assertEquals(4, answer(node, MoveCopy.class), "copies again (those already there are rewritten in place)");
        assertEquals(3, answer(node, ManifestPart.class), "the moved manifest goes to every peer");
        Manifest moved = node.manifests().find("f").orElseThrow();
        assertEquals(1, moved.locEpoch());
        moved.blocks().forEach(b -> assertEquals(TARGETS, b.replicas()));
        List<DropBlocks> drops = sent(node, DropBlocks.class);
        assertEquals(1, drops.size());
        assertEquals(List.of("b-fmv-0", "b-fmv-1"), drops.get(0).blockIds());
        assertEquals(List.of(), kept(), "the record goes when the move ends");
        assertEquals(0, after.moves());
        assertEquals(0, node.inFlight().held());
        assertTrue(sent(node, FileOp.Failed.class).isEmpty() && sent(node, Done.class).isEmpty(),
                "nobody to answer: the client went with the old coordinator");
    }

    @Test
    void restartAfterTheManifestWasRewritten_publishesAndDrops_withoutCopyingAgain() throws IOException {
        FakeNode first = node();
        Manifest from = file();
        List<Manifest.BlockRef> at = new ArrayList<>();
        from.blocks().forEach(b -> at.add(b.withReplicas(TARGETS)));
        first.manifests().save(from.withLocations(at));
        new MetaMoveStore(engine).save(new MoveRecord(from, TARGETS, 1));

        FakeNode node = node();
        Migrations after = migrations(node);
        after.tick(node.now);
        assertEquals(0, sent(node, MoveCopy.class).size());
        assertEquals(3, answer(node, ManifestPart.class));
        assertEquals(1, sent(node, DropBlocks.class).size());
        assertEquals(List.of(), kept());
        assertEquals(1, node.manifests().find("f").orElseThrow().locEpoch(), "not rewritten a second time");
    }

    private static Manifest newer() {
        Version v2 = new Version(HybridClock.of(900, 0), "dublin");
        return new Manifest("f", "fnew", 5, 10, "local", "dublin", 900, List.of(
                new Manifest.BlockRef(5, 3, List.of("dublin"))), v2, 0, false);
    }

    @Test
    void restartAfterANewerVersion_stillMovesTheEarlierVersion_whichIsKept() throws IOException {
        FakeNode first = node();
        first.manifests().save(file());
        new MetaMoveStore(engine).save(new MoveRecord(file(), TARGETS, 1));
        first.manifests().save(newer());

        FakeNode node = node();
        Migrations after = migrations(node);
        after.tick(node.now);
        assertEquals(4, answer(node, MoveCopy.class), "the earlier version is still kept: it moves");
        assertEquals(3, answer(node, ManifestPart.class));
        Manifest moved = node.manifests().history("f").orElseThrow().find(file().version()).orElseThrow();
        assertEquals(1, moved.locEpoch());
        moved.blocks().forEach(b -> assertEquals(TARGETS, b.replicas()));
        assertEquals("fnew", node.manifests().find("f").orElseThrow().fileId(), "the current version is untouched");
        assertEquals(List.of("b-fmv-0", "b-fmv-1"), sent(node, DropBlocks.class).get(0).blockIds());
        assertEquals(List.of(), kept());
    }

    @Test
    void restartAfterTheVersionWasDropped_abandonsTheMove_andDropsItsCopies() throws IOException {
        FakeNode first = node();
        first.manifests().save(newer()); // the retention dropped the moved version: only the newer one is kept
        new MetaMoveStore(engine).save(new MoveRecord(file(), TARGETS, 1));

        FakeNode node = node();
        Migrations after = migrations(node);
        after.tick(node.now);
        assertEquals(0, sent(node, MoveCopy.class).size());
        List<DropBlocks> drops = sent(node, DropBlocks.class);
        assertEquals(2, drops.size(), "the copies made for it, at both targets");
        assertEquals(List.of(), kept());
    }

    @Test
    void start_movesAnEarlierVersion_andOnlyIt_whileEachVersionHasItsOwnRecord() throws IOException {
        FakeNode node = node();
        node.manifests().save(file());
        node.manifests().save(newer());
        Migrations m = migrations(node);
        assertTrue(m.start(file(), TARGETS));
        assertFalse(m.start(file(), TARGETS), "one move per version at a time");
        assertTrue(m.moving("f") && m.moving(file()) && !m.moving(newer()));
        assertTrue(m.start(newer(), List.of("seoul")), "another version of the name moves beside it");
        assertEquals(2, kept().size());
        assertEquals(5, answer(node, MoveCopy.class), "2 blocks of the earlier version to 2 targets, 1 of the newer");
        while (answer(node, ManifestPart.class) > 0) {
            // publications to one peer go one batch at a time
        }
        boolean withHistory = false;
        for (ManifestPart p : sent(node, ManifestPart.class)) {
            List<ManifestHistory> hs = ManifestCodec.isBatch(p.data())
                    ? ManifestCodec.decodeBatch(p.data())
                    : List.of(ManifestCodec.decodeAny(p.data()));
            for (ManifestHistory ph : hs) {
                withHistory |= ph.versions().size() == 2 && ph.versions().get(0).locEpoch() == 1;
            }
        }
        assertTrue(withHistory, "the moved earlier version is published with the name's history, its head included");
        ManifestHistoryView h = new ManifestHistoryView(node);
        h.at(file()).blocks().forEach(b -> assertEquals(TARGETS, b.replicas()));
        h.at(newer()).blocks().forEach(b -> assertEquals(List.of("seoul"), b.replicas()));
        assertEquals(2, m.committed);
        assertEquals(45, m.committedBytes, "4 copies of 10 bytes and 1 of 5");
        assertFalse(m.moving("f"));
        assertEquals(List.of(), kept());
    }

    /** A node's kept copy of one version. */
    private record ManifestHistoryView(FakeNode node) {
        Manifest at(Manifest v) {
            return node.manifests().history(v.name()).orElseThrow().find(v.version()).orElseThrow();
        }
    }

    @Test
    void clientMove_ofAVersionSupersededMeanwhile_failsAndLeavesTheManifest() throws IOException {
        FakeNode node = node();
        node.manifests().save(file());
        Migrations m = migrations(node);
        m.onMove(CLIENT, new MoveReq(7, "f", TARGETS));
        node.manifests().save(newer());
        answer(node, MoveCopy.class);
        List<FileOp.Failed> failed = sent(node, FileOp.Failed.class);
        assertEquals(1, failed.size());
        assertEquals(FailureCode.NEWER_EXISTS, failed.get(0).code(), failed.get(0).error());
        assertEquals(0, node.manifests().history("f").orElseThrow().find(file().version()).orElseThrow().locEpoch());
        assertEquals(0, m.committed);
    }

    @Test
    void runningMove_itsTargetsAreToldToKeepItsCopies() throws IOException {
        FakeNode node = node();
        node.manifests().save(file());
        Migrations m = migrations(node);
        m.onMove(CLIENT, new MoveReq(7, "f", TARGETS));
        node.now += 1000 * FakeNode.MS;
        m.tick(node.now);
        List<HoldBlocks> holds = sent(node, HoldBlocks.class);
        assertEquals(2, holds.size(), "one per target");
        holds.forEach(h -> assertEquals(List.of("fmv"), h.fileIds()));

        FakeNode target = new FakeNode(); // another node, its own engine
        Migrations there = migrations(target);
        assertFalse(target.inFlight().inFlight("fmv", target.now));
        there.onHold(holds.get(0));
        assertTrue(target.inFlight().inFlight("fmv", target.now));
    }

    @Test
    void moveCopy_ofABlockAlreadyHere_rewritesItInPlace_insteadOfPullingIt() throws IOException {
        FakeNode target = new FakeNode();
        long[] wall = {1_000};
        target.disk = new MemoryBlockStorage(() -> wall[0]);
        byte[] data = "a block a move copied here before its coordinator restarted".getBytes();
        int crc = Checksums.crc32c(data);
        BlockId id = BlockId.ofFileBlock("fmv", 0);
        target.disk.put(id, data, crc);
        Migrations there = migrations(target);
        wall[0] = 2_000;
        there.onMoveCopy(CLIENT, new MoveCopy(5, id.value(), data.length, crc, List.of("seoul")));
        assertEquals(List.of(new Done(5, "stored")), sent(target, FileOp.class), "answered at once, nothing pulled");
        long written = -1;
        for (int i = 0; i < target.disk.shards(); i++) {
            for (BlockFile f : target.disk.listShard(i, Long.MAX_VALUE)) {
                written = f.id().equals(id) ? f.modifiedMillis() : written;
            }
        }
        assertEquals(2_000, written, "written again: a collection decided before cannot delete it");
        assertTrue(target.inFlight().inFlight("fmv", target.now));
        assertEquals(0, target.budget.used(), "the memory it read the block into is returned");
    }

    @Test
    void aCopyThatFailsItsLastAttempt_failsTheMove_theClientHearsIt_andTheManifestStays() throws IOException {
        FakeNode node = node();
        node.manifests().save(file());
        Migrations m = migrations(node);
        m.onMove(CLIENT, new MoveReq(7, "f", TARGETS));
        for (int attempt = 1; attempt < MoveCopies.ATTEMPTS; attempt++) {
            assertEquals(4, refuseCopies(node), "attempt " + attempt + ": every copy fails");
            assertTrue(sent(node, FileOp.Failed.class).isEmpty(), "tried again");
        }
        assertEquals(4 * MoveCopies.ATTEMPTS - 4, sent(node, MoveCopy.class).size() - 4);
        assertEquals(4, refuseCopies(node, FailureCode.INSUFFICIENT_STORAGE));
        List<FileOp.Failed> failed = sent(node, FileOp.Failed.class);
        assertEquals(1, failed.size());
        assertEquals(FailureCode.INSUFFICIENT_STORAGE, failed.get(0).code(), "the last attempt's code: " + failed.get(0).error());
        assertEquals(4 * MoveCopies.ATTEMPTS, sent(node, MoveCopy.class).size(), "no copy after the move failed");
        assertEquals(0, node.manifests().find("f").orElseThrow().locEpoch(), "the file stays where it was");
        assertEquals(List.of(), kept());
        assertEquals(0, m.moves());
    }

    @Test
    void aCopyThatFailsOnce_isTriedAgain_andTheMoveCompletes() throws IOException {
        FakeNode node = node();
        node.manifests().save(file());
        Migrations m = migrations(node);
        m.onMove(CLIENT, new MoveReq(7, "f", TARGETS));
        assertEquals(4, refuseCopies(node));
        assertEquals(4, answer(node, MoveCopy.class), "the second attempts succeed");
        assertEquals(3, answer(node, ManifestPart.class));
        assertEquals(1, node.manifests().find("f").orElseThrow().locEpoch());
        assertEquals(1, sent(node, Done.class).size(), "the client hears one Done");
    }

    @Test
    void aLongMove_sendsTheClientProgress_atLeastEveryHeartbeat() throws IOException {
        FakeNode node = node();
        node.manifests().save(file());
        Migrations m = migrations(node);
        m.onMove(CLIENT, new MoveReq(7, "f", TARGETS));
        node.now += MoveCopies.HEARTBEAT_NANOS;
        m.tick(node.now);
        assertEquals(List.of(), sent(node, PutProgress.class), "not yet");
        node.now += 1;
        m.tick(node.now);
        assertEquals(List.of(new PutProgress(7, 0)), sent(node, PutProgress.class), "nothing copied yet, but alive");
        m.tick(node.now + 1);
        assertEquals(1, sent(node, PutProgress.class).size(), "once per heartbeat");
        Object[] first = node.sent.stream().filter(x -> x[1] instanceof MoveCopy).findFirst().orElseThrow();
        node.waiting.remove(((MoveCopy) first[1]).req()).onReply(new Done(((MoveCopy) first[1]).req(), "stored"));
        assertEquals(new PutProgress(7, 10), sent(node, PutProgress.class).get(1), "a copied block is progress");
    }
}
