package geoblocks.blockstore.core;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One data directory of a node (a disk): where its blocks go, the most data bytes it may hold
 * ({@code capacityBytes}, 0: as much as its file system takes) and the free space a write must leave
 * ({@code reserveBytes}).
 */
public record DataDir(Path path, long capacityBytes, long reserveBytes) {
    public DataDir {
        Objects.requireNonNull(path, "path");
        if (reserveBytes < 0) {
            throw new IllegalArgumentException("the reserve of data directory " + path + " must be >= 0, was "
                    + reserveBytes);
        }
        if (capacityBytes < 0 || capacityBytes > 0 && capacityBytes <= reserveBytes) {
            throw new IllegalArgumentException("the capacity of data directory " + path
                    + " must be 0 (the whole disk) or above its reserve of " + reserveBytes + " bytes, was "
                    + capacityBytes);
        }
    }
}
