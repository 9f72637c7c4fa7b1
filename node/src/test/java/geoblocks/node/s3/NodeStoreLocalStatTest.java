package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.SharedManifestReads;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.node.host.Bridge;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The gateway's stat of an inline object from the node's store ({@link NodeStore} with
 * {@link SharedManifestReads}): answered at once, as the node would,
 * only for the newest durable version of an inline object; every other stat waits for the node
 * (here a bridge that never comes, so such a stat stays open).
 */
class NodeStoreLocalStatTest {
    private static Manifest inline(String name, String uploadedAt) {
        return Manifest.inline(name, "f1", 1 << 20, "tworandom", uploadedAt, 1_700_000_000_000L,
                new Version(HybridClock.of(1_700_000_000_000L, 0), uploadedAt), Map.of("etag", "e1"),
                "tiny".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void newestDurableInlineVersion_isAnsweredAtOnce_everythingElseGoesToTheNode() throws Exception {
        ManifestStore store = new ManifestStore(new MemoryMetaEngine());
        store.deferSyncs();
        store.save(inline("b/here", "seoul"));
        store.save(inline("b/abroad", "dublin"));
        store.synced(store.writes());
                store.save(new Manifest("b/blocks", "f2", 2 << 20, 1 << 20, "localclosest", "seoul", 1_700_000_000_000L,
                List.of(new Manifest.BlockRef(1 << 20, 7, List.of("seoul")), new Manifest.BlockRef(1 << 20, 8, List.of("seoul")))));
        store.synced(store.writes()); // both durable: the one with blocks still goes to the node
        store.save(inline("b/newer", "seoul"));
        NodeStore nodes = new NodeStore(new CompletableFuture<Bridge>(), store.sharedReads(), "seoul");

        CompletableFuture<ClientPort.FileStat> here = nodes.stat("b/here");
        assertTrue(here.isDone());
        assertEquals(inline("b/here", "seoul"), here.get().manifest());
        assertTrue(here.get().pendingKnown(), "uploaded at this node, which knows its pending copies: none");
        assertEquals(List.of(), here.get().pending(0));
        assertFalse(nodes.stat("b/abroad", "").get().pendingKnown(), "uploaded elsewhere");

        assertFalse(nodes.stat("b/newer").isDone(), "written, its sync not ended");
        assertFalse(nodes.stat("b/blocks").isDone(), "blocks: the node answers (pending copies, downloads)");
        assertFalse(nodes.stat("b/missing").isDone(), "unknown here: the node asks its peers");
        assertFalse(nodes.stat("b/here", "1700000000000.0.seoul").isDone(), "a version asked for: the node answers");
        assertFalse(new NodeStore(new CompletableFuture<Bridge>()).stat("b/here").isDone(), "no local reads given");
    }
}
