package geoblocks.node.s3.encryption;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ByteSource;
import geoblocks.node.s3.object.ETags;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;

/**
 * The encrypted object's bytes on their way into and out of the node ({@link SseCipher}'s layout):
 * {@link Encrypting} presents a plaintext source as its stored bytes, sealing a chunk when the node
 * reads it (the node reads in order, a window at a time; any offset works); {@link Decrypting} takes
 * stored bytes of a span of whole chunks, in order, and hands each chunk's plaintext on once it
 * opened; {@link #decryptFile} opens a whole stored object held in a file. Memory: a chunk or two.
 */
public final class SseStreams {
    private SseStreams() {
    }

    /** A plaintext source's stored bytes. */
    public static final class Encrypting implements ByteSource {
        private final SseCipher cipher;
        private final ByteSource plain;
        private final long plainSize;
        private final long size;
        private final long chunks;
        private long cachedIndex = -1;
        private byte[] cached;

        public Encrypting(SseCipher cipher, ByteSource plain) {
            this.cipher = cipher;
            this.plain = plain;
            this.plainSize = plain.size();
            this.size = SseCipher.cipherSize(plainSize);
            this.chunks = SseCipher.chunksOfPlain(plainSize);
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public synchronized void read(long offset, ByteBuffer dst) throws IOException {
            long at = offset;
            while (dst.hasRemaining()) {
                if (at >= size) {
                    throw new IOException("offset " + at + " is past the " + size + " stored bytes");
                }
                long index = at / SseCipher.SEALED;
                byte[] sealed = chunk(index);
                int in = (int) (at - index * SseCipher.SEALED);
                int n = Math.min(dst.remaining(), sealed.length - in);
                dst.put(sealed, in, n);
                at += n;
            }
        }

        private byte[] chunk(long index) throws IOException {
            if (index != cachedIndex) {
                long start = index * SseCipher.CHUNK;
                int len = (int) Math.min(SseCipher.CHUNK, plainSize - start);
                byte[] p = new byte[len];
                plain.read(start, ByteBuffer.wrap(p));
                cached = cipher.seal(index, index == chunks - 1, p, 0, len);
                cachedIndex = index;
            }
            return cached;
        }
    }

    /**
     * Stored bytes {@code [from, to)} (whole chunks, {@link SseCipher#cipherSpan}) of an object stored
     * as {@code total} bytes, received in order, each chunk's plaintext written to {@code out} at its
     * offset in the plaintext once it opened. A chunk that does not open fails the download with an
     * IOException (the plaintext of it and after it is never written). A download started again
     * ({@link #begin}) streams the span from its start.
     */
    public static final class Decrypting implements ByteSink {
        private final SseCipher cipher;
        private final long total;
        private final long from;
        private final long to;
        private final long chunks;
        private final ByteSink out;
        private final byte[] buf = new byte[SseCipher.SEALED];
        private int have;
        private long next;

        public Decrypting(SseCipher cipher, long total, long from, long to, ByteSink out) {
            if (from % SseCipher.SEALED != 0 || to > total || from > to) {
                throw new IllegalArgumentException("not a span of whole chunks: " + from + ".." + to + " of " + total);
            }
            this.cipher = cipher;
            this.total = total;
            this.from = from;
            this.to = to;
            this.chunks = SseCipher.chunks(total);
            this.out = out;
            this.next = from;
        }

        @Override
        public synchronized void begin() throws IOException {
            have = 0;
            next = from;
            out.begin();
        }

        @Override
        public synchronized void write(long offset, byte[] data) throws IOException {
            long a = Math.max(offset, next + have);
            long b = Math.min(offset + data.length, to);
            if (a >= b) {
                return;
            }
            if (a != next + have) {
                throw new IOException("stored bytes arrived out of order: " + a + " after " + (next + have));
            }
            int off = (int) (a - offset);
            int left = (int) (b - a);
            while (left > 0) {
                long index = next / SseCipher.SEALED;
                int chunkLen = (int) (Math.min((index + 1) * SseCipher.SEALED, total) - index * SseCipher.SEALED);
                int n = Math.min(left, chunkLen - have);
                System.arraycopy(data, off, buf, have, n);
                have += n;
                off += n;
                left -= n;
                if (have == chunkLen) {
                    byte[] plain = cipher.open(index, index == chunks - 1, buf, 0, chunkLen);
                    have = 0;
                    next += chunkLen;
                    out.write(index * SseCipher.CHUNK, plain);
                }
            }
        }

        /** Whether every chunk of the span arrived and opened. */
        public synchronized boolean complete() {
            return next == to && have == 0;
        }
    }

    /** A file's bytes as a source (a spooled plaintext body). */
    public static final class FileSource implements ByteSource, AutoCloseable {
        private final FileChannel ch;
        private final long size;

        public FileSource(Path file) throws IOException {
            this.ch = FileChannel.open(file, StandardOpenOption.READ);
            this.size = ch.size();
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public synchronized void read(long offset, ByteBuffer dst) throws IOException {
            long at = offset;
            while (dst.hasRemaining()) {
                int n = ch.read(dst, at);
                if (n < 0) {
                    throw new IOException("the file ends at " + size + ", before " + (at + dst.remaining()));
                }
                at += n;
            }
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }

    /** Opens a whole stored object held in memory (one stored inline in its manifest); IOException when it does not open. */
    public static byte[] decryptBytes(SseCipher cipher, byte[] stored) throws IOException {
        long plain = SseCipher.plainSize(stored.length);
        byte[] out = new byte[(int) plain];
        Decrypting d = new Decrypting(cipher, stored.length, 0, stored.length, new ByteSink() {
            @Override
            public void begin() {
                // read once
            }

            @Override
            public void write(long offset, byte[] data) {
                System.arraycopy(data, 0, out, (int) offset, data.length);
            }
        });
        d.write(0, stored);
        if (!d.complete()) {
            throw new IOException("the stored object is cut short");
        }
        return out;
    }

    /**
     * Opens the stored object in {@code in} (all of it) into {@code out}, returning the plaintext's
     * MD5; an IOException when a chunk does not open or the file is not a whole object.
     */
    public static byte[] decryptFile(SseCipher cipher, Path in, Path out) throws IOException {
        MessageDigest md5 = ETags.md5();
        try (FileChannel src = FileChannel.open(in, StandardOpenOption.READ);
                FileChannel dst = FileChannel.open(out, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            long total = src.size();
            SseCipher.plainSize(total); // a size no object has is refused before anything is written
            Decrypting d = new Decrypting(cipher, total, 0, total, new ByteSink() {
                @Override
                public void begin() {
                    // read once, from the start
                }

                @Override
                public void write(long offset, byte[] data) throws IOException {
                    md5.update(data);
                    ByteBuffer b = ByteBuffer.wrap(data);
                    while (b.hasRemaining()) {
                        dst.write(b, offset + b.position());
                    }
                }
            });
            ByteBuffer b = ByteBuffer.allocate(SseCipher.SEALED);
            long at = 0;
            while (at < total) {
                b.clear();
                int n = src.read(b, at);
                if (n < 0) {
                    break;
                }
                byte[] part = new byte[n];
                b.flip();
                b.get(part);
                d.write(at, part);
                at += n;
            }
            if (!d.complete()) {
                throw new IOException("the stored object ended after " + at + " of " + total + " bytes");
            }
        }
        return md5.digest();
    }
}
