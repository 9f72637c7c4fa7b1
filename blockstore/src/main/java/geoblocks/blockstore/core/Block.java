package geoblocks.blockstore.core;

/** A block's bytes and their CRC32C. The array is owned by the holder; nobody mutates it. */
public record Block(byte[] data, int crc) {
    public int length() {
        return data.length;
    }
}
