package geoblocks.blockstore.core.ec;

import java.io.IOException;

/** Where the bytes of one fragment are read from: a file, a peer's answer, an array (tests). */
public interface FragmentSource {
    /** The fragment's length in bytes. */
    long length();

    /** Reads exactly {@code len} bytes at {@code offset} of the fragment into {@code dst[0, len)}, or throws. */
    void read(long offset, byte[] dst, int len) throws IOException;

    /** A fragment held in {@code bytes} (not copied). */
    static FragmentSource of(byte[] bytes) {
        return new FragmentSource() {
            @Override
            public long length() {
                return bytes.length;
            }

            @Override
            public void read(long offset, byte[] dst, int len) throws IOException {
                if (offset < 0 || offset + len > bytes.length) {
                    throw new IOException("read [" + offset + ", +" + len + ") past the fragment's " + bytes.length + " bytes");
                }
                System.arraycopy(bytes, (int) offset, dst, 0, len);
            }
        };
    }
}
