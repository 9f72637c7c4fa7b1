package geoblocks.blockstore.core;

import geoblocks.net.Bytes;

/** A block read into {@link Bytes} (possibly a pooled buffer: the holder releases it) and its CRC32C, verified. */
public record BlockBytes(Bytes data, int crc) {
    public int length() {
        return data.length();
    }
}
