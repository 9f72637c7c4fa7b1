package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp.NameDigest;
import geoblocks.blockstore.wire.FileOp.SyncDigest;
import geoblocks.blockstore.wire.FileOp.SyncNames;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Anti-entropy's name lists stay within one network frame whatever the names' length. */
class AntiEntropyFramesTest {
    @Test
    void syncNamesOfLongestNames_comeInFramesOfAtMost64KiB_andCoverEveryName() throws Exception {
        FakeNode node = new FakeNode();
        Set<String> want = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            String head = String.format("bucket/%04d-", i);
            String name = head + "k".repeat(Manifest.MAX_NAME_BYTES - head.length());
            node.manifests().save(new Manifest(name, "f" + i, 1, 1, "local", "seoul", 1_700_000_000_000L + i,
                    List.of(new Manifest.BlockRef(1, 7, List.of("seoul"))), new Version(i + 1, "seoul"), 0, false,
                    Map.of()));
            want.add(name);
        }
        AntiEntropy ae = new AntiEntropy(node, 1, false);
        ae.onDigest(NetAddress.of("127.0.0.1", 7001), new SyncDigest(3, Collections.nCopies(ManifestStore.BUCKETS, 0L)));
        Set<String> seen = new HashSet<>();
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < node.sent.size(); i++) {
            SyncNames s = (SyncNames) node.sent.get(i)[1];
            int size = FileCodec.INSTANCE.encodedSize(new FileMsg(ListPagesTest.WIDE, s));
            sizes.add(size);
            assertTrue(size <= ListPagesTest.FRAME, "SyncNames of " + s.names().size() + " names takes " + size);
            assertEquals(i < node.sent.size() - 1, s.more());
            for (NameDigest n : s.names()) {
                seen.add(n.name());
            }
        }
        assertEquals(want, seen);
        assertTrue(node.sent.size() > 1, sizes.toString());
    }
}
