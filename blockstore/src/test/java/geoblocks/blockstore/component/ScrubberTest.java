package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.Version;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scrubber's walk over a store of inline objects (no blocks to verify): each call looks at a
 * bounded slice of names and yields to the next tick, and the walk still reaches and verifies the
 * block held here after them, then ends the pass.
 */
class ScrubberTest {
    private static final long T0 = 1_800_000_000_000L;

    @Test
    void inlineNamesAreWalkedInSlices_andTheBlockAfterThemIsVerified() throws IOException {
        FakeNode node = new FakeNode();
        node.disk = new MemoryBlockStorage(() -> T0);
        Version v = new Version(HybridClock.of(T0, 0), "saopaulo");
        int inline = 2 * Scrubber.NAMES_PER_CALL + 100;
        for (int i = 0; i < inline; i++) {
            node.manifests().save(Manifest.inline(String.format("a-%06d", i), "f" + i, 1 << 20, "local", "saopaulo", T0,
                    v, Map.of(), new byte[] {(byte) i}));
        }
        byte[] data = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        int crc = Checksums.crc32c(data);
        Manifest withBlock = new Manifest("z-block", "fz", 10, 10, "local", "saopaulo", T0,
                List.of(new Manifest.BlockRef(10, crc, List.of("saopaulo"))), v, 0, false);
        node.manifests().save(withBlock);
        node.disk.put(withBlock.blockId(0), data, crc);
        Scrubber s = new Scrubber(node, 1 << 20, 600_000_000_000L, null);

        s.tick(node.now, 1_000_000_000L); // names 1..4096
        assertEquals(0, s.scrubbed, "the first slice holds only inline names");
        s.tick(node.now, 1_000_000_000L); // 4097..8192
        assertEquals(0, s.scrubbed);
        s.tick(node.now, 1_000_000_000L); // the last 100 inline names, then z-block
        assertEquals(1, s.scrubbed, "the block after the inline names is verified");
        assertEquals(0, s.repaired + s.unrepairable);
        var progress = s.progress(node.now, T0);
        assertEquals(1, progress.passes(), progress.toString());
        assertEquals(1, progress.passBlocks(), progress.toString());
    }
}
