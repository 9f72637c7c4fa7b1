package geoblocks.sim.repair;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.NodeFactory;
import geoblocks.sim.harness.ProductionNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/**
 * Node factories of the repair scenario: real geoblocks nodes whose stores are seeded with one
 * file ({@link #FILE}, {@link #BLOCKS} blocks, replicas on every region) that only the holder
 * actually has, so the other node's scrubber finds every replica missing and repairs it; and the
 * probe that reads the outcome. {@link #STORES} lets the probe inspect the block stores; it is
 * static because every simulation runs in a fresh class loader on one thread.
 */
public final class RepairNodes {
    public static final String FILE = "repair/me";
    public static final int BLOCK = 256 << 10;
    public static final int BLOCKS = 3;
    static final Map<String, BlockStorage> STORES = new LinkedHashMap<>();

    private RepairNodes() {}

    /** Block {@code i} of the seeded file. */
    static byte[] block(long seed, int i) {
        byte[] b = new byte[BLOCK];
        new Random(seed * 31 + i).nextBytes(b);
        return b;
    }

    /** The seeded file's manifest: every block on every region of {@code regions}. */
    static Manifest manifest(long seed, List<String> regions) {
        List<Manifest.BlockRef> refs = new ArrayList<>();
        for (int i = 0; i < BLOCKS; i++) {
            refs.add(new Manifest.BlockRef(BLOCK, Checksums.crc32c(block(seed, i)), regions));
        }
        return new Manifest(FILE, "f" + Long.toHexString(seed), (long) BLOCK * BLOCKS, BLOCK, "localclosest",
                regions.get(0), 1_700_000_000_000L, refs);
    }

    /** A geoblocks node (the production {@link NodeParent}); {@code holds}: it has the file's blocks. */
    public record Node(String region, Map<String, String> regions, long seed, boolean holds, String transport)
            implements ProductionNode {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public NodeParent.NodeInit init(NetAddress self) {
            try {
                Manifest m = manifest(seed, List.copyOf(regions.keySet()));
                MemoryBlockStorage blocks = ProductionNode.memoryBlocks();
                if (holds) {
                    for (int i = 0; i < BLOCKS; i++) {
                        blocks.put(m.blockId(i), block(seed, i), m.blocks().get(i).crc());
                    }
                }
                STORES.put(region, blocks);
                ManifestStore manifests = ProductionNode.memoryManifests();
                manifests.save(m);
                return ProductionNode.nodeInit(region, regions, NodeSettings.defaults().withBackgroundTransport(transport),
                        blocks, manifests, seed);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The probe: at {@code atMs} asks every node for its status and checks every replica. */
    public record Probe(Map<String, String> regions, long seed, long atMs) implements NodeFactory {
        public Probe {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return RepairProbeHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new RepairProbeHost.ProbeInit(self, regions, seed, atMs);
        }
    }
}
