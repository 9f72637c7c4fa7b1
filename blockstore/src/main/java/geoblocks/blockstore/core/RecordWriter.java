package geoblocks.blockstore.core;

import java.nio.charset.StandardCharsets;

/**
 * Writes one record into an array made at its exact size: big-endian numbers, raw bytes and strings as
 * u16 length + standard UTF-8 (the layouts of {@link ManifestCodec}). The writer never grows or copies the
 * array: the codec computes the size first ({@link #strSize}), then writes. Not thread-safe.
 */
final class RecordWriter {
    private final byte[] buf;
    private int pos;

    RecordWriter(byte[] buf) {
        this.buf = buf;
    }

    /** Bytes {@link #str} writes for {@code s}: its u16 length and its UTF-8; a string over 65,535 bytes is refused. */
    static int strSize(String s) {
        int n = utf8Length(s);
        if (n > 0xFFFF) {
            throw new IllegalArgumentException("manifest string of " + n + " UTF-8 bytes exceeds 65535");
        }
        return 2 + n;
    }

    /**
     * The length of {@code s.getBytes(UTF_8)}, without making it: 1 byte per char below 0x80, 2 below 0x800, 4 per
     * surrogate pair, 3 for any other char, and 1 for a surrogate without its pair (the encoder writes '?').
     */
    static int utf8Length(String s) {
        int n = s.length();
        int len = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                len += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                len += 2; // 4 bytes for the pair's 2 chars
                i++;
            } else if (!Character.isSurrogate(c)) {
                len += 2;
            }
        }
        return len;
    }

    int position() {
        return pos;
    }

    void u8(int v) {
        buf[pos++] = (byte) v;
    }

    void u16(int v) {
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    void i32(int v) {
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    void i64(long v) {
        i32((int) (v >>> 32));
        i32((int) v);
    }

    void bytes(byte[] b) {
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    /** {@code s} as u16 length + UTF-8 (ASCII written char by char, anything else through the JDK's encoder). */
    void str(String s) {
        int n = s.length();
        int start = pos;
        pos += 2;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                byte[] b = s.getBytes(StandardCharsets.UTF_8);
                pos = start;
                u16(b.length);
                bytes(b);
                return;
            }
            buf[pos++] = (byte) c;
        }
        buf[start] = (byte) (n >>> 8);
        buf[start + 1] = (byte) n;
    }

    /** Appends the CRC32C of what was written from {@code from} on. */
    void crc32cFrom(int from) {
        i32(Checksums.crc32c(buf, from, pos - from));
    }
}
