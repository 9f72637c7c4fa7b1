package geoblocks.blockstore.core;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/** CRC32C helpers: the checksum of every block, on the wire, on disk and in manifests. */
public final class Checksums {
    private Checksums() {}

    public static int crc32c(byte[] data) {
        return crc32c(data, 0, data.length);
    }

    public static int crc32c(byte[] data, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(data, off, len);
        return (int) c.getValue();
    }

    /** The CRC32C of {@code data}'s remaining bytes (its position is left as it was). */
    public static int crc32c(ByteBuffer data) {
        CRC32C c = new CRC32C();
        c.update(data.duplicate());
        return (int) c.getValue();
    }

    public static String hex(int crc) {
        return String.format("%08x", crc);
    }
}
