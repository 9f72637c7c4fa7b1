package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Builds valid manifests for tests: blocks of {@code blockSize} and a shorter last one. */
final class Manifests {
    private Manifests() {}

    static Manifest of(String name, long size, int blockSize) {
        return of(name, size, blockSize, List.of("seoul", "dublin"));
    }

    static Manifest of(String name, long size, int blockSize, List<String> replicas) {
        int n = Manifest.blockCount(size, blockSize);
        Random r = new Random(size ^ blockSize);
        List<Manifest.BlockRef> blocks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int len = (int) Math.min(blockSize, size - (long) i * blockSize);
            blocks.add(new Manifest.BlockRef(len, r.nextInt(), replicas));
        }
        return new Manifest(name, "f" + Long.toHexString(size), size, blockSize, "localclosest", "seoul",
                1_700_000_000_000L + size, blocks);
    }

    static Manifest.BlockRef ref(int length) {
        return new Manifest.BlockRef(length, 0x1234, List.of("seoul"));
    }

    static Manifest withBlocks(long size, int blockSize, List<Manifest.BlockRef> blocks) {
        return new Manifest("f.bin", "f1", size, blockSize, "local", "seoul", 1L, blocks);
    }
}
