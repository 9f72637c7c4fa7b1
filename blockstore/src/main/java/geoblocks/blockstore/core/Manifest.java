package geoblocks.blockstore.core;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Everything needed to find and verify a stored file from any node: its name, size, block size,
 * the policy and region it was uploaded with, and per block its length, CRC32C and replica
 * regions. Invariant: block lengths add up to {@code size}; every block but the last is
 * {@code blockSize} long and the last at most that; every block has at least one replica.
 */
public record Manifest(String name, String fileId, long size, int blockSize, String policy,
        String uploadedAt, long createdMillis, List<BlockRef> blocks) {

    /** One block of the file: its length, checksum and the regions holding a replica. */
    public record BlockRef(int length, int crc, List<String> replicas) {
        public BlockRef {
            replicas = List.copyOf(replicas);
            if (length < 0) {
                throw new IllegalArgumentException("block length must be >= 0, was " + length);
            }
            if (replicas.isEmpty()) {
                throw new IllegalArgumentException("a block needs at least one replica");
            }
        }
    }

    public Manifest {
        validateName(name);
        Objects.requireNonNull(fileId, "fileId");
        blocks = List.copyOf(blocks);
        if (blockSize <= 0) {
            throw new IllegalArgumentException("block size must be > 0, was " + blockSize);
        }
        long sum = 0;
        for (int i = 0; i < blocks.size(); i++) {
            int len = blocks.get(i).length();
            if (i < blocks.size() - 1 && len != blockSize) {
                throw new IllegalArgumentException("block " + i + " has " + len + " bytes, expected " + blockSize);
            }
            if (len > blockSize) {
                throw new IllegalArgumentException("last block has " + len + " bytes, more than the block size " + blockSize);
            }
            sum += len;
        }
        if (sum != size) {
            throw new IllegalArgumentException("blocks add up to " + sum + " bytes, file size is " + size);
        }
    }

    public BlockId blockId(int index) {
        return BlockId.ofFileBlock(fileId, index);
    }

    /**
     * File names: 1..100 UTF-8 bytes, no control characters. Path-like names ("photos/1") are fine:
     * a name is never used as a path (manifests are stored under the hex of the name).
     */
    public static String validateName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("file name must not be empty");
        }
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > 100) {
            throw new IllegalArgumentException("file name must be at most 100 UTF-8 bytes, '" + name + "' has " + bytes);
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("file name must not contain control characters: '" + name + "'");
            }
        }
        return name;
    }

    public static int blockCount(long size, int blockSize) {
        return (int) Math.max(1, (size + blockSize - 1) / blockSize);
    }
}
