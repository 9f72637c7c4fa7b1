package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.BucketLeaves;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.NameDigest;
import geoblocks.blockstore.wire.PeerOp.SyncDigest;
import geoblocks.blockstore.wire.PeerOp.SyncLeaves;
import geoblocks.blockstore.wire.PeerOp.SyncNames;
import geoblocks.blockstore.wire.PeerOp.SyncNamesReq;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

/** The answering side of anti-entropy: its pages stay within one network frame whatever the names' length. */
class AntiEntropyFramesTest {
    /** The largest Kompics message on TCP (kompics-netty's frame decoder). */
    static final int FRAME = 65_532;
    /** The widest header: IPv6 addresses both ways. */
    static final NetHeader WIDE = new NetHeader(NetAddress.of("fe80::1", 65535), NetAddress.of("fe80::2", 65535),
            Transport.TCP);
    private static final NetAddress PEER = NetAddress.of("127.0.0.1", 7001);

    private static int size(FileOp op) {
        return FileCodec.INSTANCE.encodedSize(new FileMsg(WIDE, op));
    }

    /** A node holding 500 names of the longest length (1,088 bytes); returns them. */
    private static Set<String> longestNames(FakeNode node) throws Exception {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            String head = String.format("bucket/%04d-", i);
            String name = head + "k".repeat(Manifest.MAX_NAME_BYTES - head.length());
            node.manifests().save(new Manifest(name, "f" + i, 1, 1, "local", "seoul", 1_700_000_000_000L + i,
                    List.of(new Manifest.BlockRef(1, 7, List.of("seoul"))), new Version(i + 1, "seoul"), 0, false,
                    Map.of()));
            names.add(name);
        }
        return names;
    }

    @Test
    void syncNamesOfLongestNames_comeInFramesBelowTheLimit_andCoverEveryName() throws Exception {
        FakeNode node = new FakeNode();
        Set<String> want = longestNames(node);
        Set<Integer> leaves = new TreeSet<>();
        want.forEach(n -> leaves.add(ManifestStore.leafOf(n)));
        AntiEntropy ae = new AntiEntropy(node, 1, false);
        ae.onNamesReq(PEER, new SyncNamesReq(3, List.copyOf(leaves)));
        Set<String> seen = new HashSet<>();
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < node.sent.size(); i++) {
            SyncNames s = (SyncNames) node.sent.get(i)[1];
            sizes.add(size(s));
            assertTrue(size(s) <= FRAME, "SyncNames of " + s.names().size() + " names takes " + size(s));
            assertEquals(i < node.sent.size() - 1, s.more());
            for (NameDigest n : s.names()) {
                seen.add(n.name());
            }
        }
        assertEquals(want, seen);
        assertTrue(node.sent.size() >= 500 / (AntiEntropy.MESSAGE_BYTES / (2 + Manifest.MAX_NAME_BYTES + 8)), sizes.toString());
    }

    @Test
    void syncLeavesOfEveryBucket_comeInFramesBelowTheLimit_andCoverEveryDifferingBucket() throws Exception {
        FakeNode node = new FakeNode();
        Set<String> names = longestNames(node);
        Set<Integer> differing = new TreeSet<>();
        names.forEach(n -> differing.add(ManifestStore.bucketOf(n)));
        AntiEntropy ae = new AntiEntropy(node, 1, false);
        ae.onDigest(PEER, new SyncDigest(4, Collections.nCopies(ManifestStore.BUCKETS, 0L)));
        Set<Integer> seen = new TreeSet<>();
        for (int i = 0; i < node.sent.size(); i++) {
            SyncLeaves s = (SyncLeaves) node.sent.get(i)[1];
            assertTrue(size(s) <= FRAME, "SyncLeaves of " + s.buckets().size() + " buckets takes " + size(s));
            assertEquals(i < node.sent.size() - 1, s.more());
            for (BucketLeaves b : s.buckets()) {
                seen.add(b.bucket());
                assertEquals(ManifestStore.LEAVES, b.leaves().size());
                long[] mine = node.manifests().leafDigests(b.bucket());
                for (int leaf = 0; leaf < ManifestStore.LEAVES; leaf++) {
                    assertEquals(mine[leaf], b.leaves().get(leaf));
                }
            }
        }
        assertEquals(differing, seen);
        assertTrue(node.sent.size() > 1);
    }

    @Test
    void digestsConverged_answerOneEmptyPage_badRequestsFail() throws Exception {
        FakeNode node = new FakeNode();
        longestNames(node);
        AntiEntropy ae = new AntiEntropy(node, 1, false);
        List<Long> same = new ArrayList<>();
        for (long d : node.manifests().bucketDigests()) {
            same.add(d);
        }
        ae.onDigest(PEER, new SyncDigest(5, same));
        ae.onDigest(PEER, new SyncDigest(6, List.of(1L, 2L)));
        ae.onNamesReq(PEER, new SyncNamesReq(7, List.of(0, ManifestStore.BUCKETS * ManifestStore.LEAVES)));
        ae.onNamesReq(PEER, new SyncNamesReq(8, List.of()));
        assertEquals(4, node.sent.size());
        SyncLeaves converged = (SyncLeaves) node.sent.get(0)[1];
        assertEquals(List.of(), converged.buckets());
        assertEquals(false, converged.more());
        for (int i = 1; i <= 2; i++) {
            assertEquals(FailureCode.INVALID, ((Failed) node.sent.get(i)[1]).code(), ((Failed) node.sent.get(i)[1]).error());
        }
        assertTrue(((Failed) node.sent.get(1)[1]).error().contains("256 buckets, got 2"), "names the offending count");
        assertTrue(((Failed) node.sent.get(2)[1]).error().contains("was 65536"), "names the offending leaf");
        SyncNames none = (SyncNames) node.sent.get(3)[1];
        assertEquals(List.of(), none.names());
        assertEquals(false, none.more());
    }
}
