package geoblocks.node.s3.body;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.node.http.Exchange;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.ETags;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A request body spooled as it streams in, with its MD5 (the ETag, and Content-MD5's check) and
 * SHA-256 (x-amz-content-sha256's check) computed on the way. A small body (at most
 * {@link #MEMORY_MAX} bytes announced) is kept in memory when the gateway's {@link MemoryGrant} has
 * room, so a small PUT creates, writes, reads and deletes no temp file; any other body goes to a temp
 * file and memory stays at one chunk whatever the size. More bytes than {@code limit} fail the body.
 * When the body ends, {@code onDone} gets this spool; on an error or a dropped connection the file is
 * removed (or the memory given back).
 */
public final class BodySpool implements Exchange.BodySink {
    /** The largest body kept in memory instead of a temp file. */
    public static final int MEMORY_MAX = 64 * 1024;

    /** Bytes of request bodies a gateway keeps in memory at once; past it, bodies go to temp files. */
    public static final class MemoryGrant {
        private final long capacity;
        private final AtomicLong used = new AtomicLong();

        public MemoryGrant(long capacity) {
            this.capacity = capacity;
        }

        boolean tryTake(long n) {
            long u;
            do {
                u = used.get();
                if (u + n > capacity) {
                    return false;
                }
            } while (!used.compareAndSet(u, u + n));
            return true;
        }

        void give(long n) {
            used.addAndGet(-n);
        }

        /** Bytes held now (for tests). */
        public long used() {
            return used.get();
        }
    }

    /** The body's share of the spool while it arrives (null: in memory, or not limited). */
    private SpoolSpace.Reservation room;

    /** The spool had no room for a body: the S3 error to answer. */
    public static final class SpoolFull extends IOException {
        private final S3Exception error;

        SpoolFull(S3Exception error) {
            super(error.getMessage());
            this.error = error;
        }

        public S3Exception error() {
            return error;
        }
    }

    private final Path file;
    private final FileChannel out;
    /** The body when kept in memory, else null. */
    private byte[] memory;
    private MemoryGrant grant;
    private final long limit;
    private final MessageDigest md5 = ETags.md5();
    private final MessageDigest sha256;
    private final Consumer<BodySpool> onDone;
    private long size;
    private boolean ended;

    /** {@code sha256}: whether the body's SHA-256 is wanted (a signed payload hash to check). */
    public BodySpool(S3Settings settings, long limit, boolean sha256, Consumer<BodySpool> onDone) throws IOException {
        this(settings, limit, sha256, null, onDone);
    }

    /**
     * {@code grant}: where a body of at most {@link #MEMORY_MAX} bytes ({@code limit}) may be kept in
     * memory instead of a file (null: always a file, as for multipart parts, which outlive the request).
     */
    public BodySpool(S3Settings settings, long limit, boolean sha256, MemoryGrant grant, Consumer<BodySpool> onDone)
            throws IOException {
        this(settings, limit, sha256, grant, null, onDone);
    }

    /**
     * As above; a body spooled to a file is first admitted by {@code space} (null: always), for {@code limit}
     * bytes: an S3Exception when the spool has no room, before a file is made.
     */
    public BodySpool(S3Settings settings, long limit, boolean sha256, MemoryGrant grant, SpoolSpace space,
            Consumer<BodySpool> onDone) throws IOException {
        if (grant != null && limit >= 0 && limit <= MEMORY_MAX && grant.tryTake(limit)) {
            this.memory = new byte[(int) limit];
            this.grant = grant;
            this.file = null;
            this.out = null;
        } else {
            if (space != null) {
                try {
                    this.room = space.admit(Math.max(0, limit));
                } catch (S3Exception e) {
                    throw new SpoolFull(e);
                }
            }
            this.file = settings.spoolFile("body-");
            this.out = FileChannel.open(file, StandardOpenOption.WRITE);
        }
        this.limit = limit;
        this.onDone = onDone;
        try {
            this.sha256 = sha256 ? MessageDigest.getInstance("SHA-256") : null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void onChunk(ByteBuf chunk) throws IOException {
        int n = chunk.readableBytes();
        if (size + n > limit) {
            discard();
            throw new IOException("request body exceeds " + limit + " bytes");
        }
        ByteBuffer b = chunk.nioBuffer();
        md5.update(b.duplicate());
        if (sha256 != null) {
            sha256.update(b.duplicate());
        }
        if (checksum != null) {
            checksum.update(b);
        }
        if (memory != null) {
            b.get(memory, (int) size, n);
        } else {
            while (b.hasRemaining()) {
                out.write(b);
            }
        }
        size += n;
    }

    @Override
    public void onEnd() throws IOException {
        ended = true;
        if (out != null) {
            out.close();
        }
        release();
        md5Result = md5.digest();
        sha256Result = sha256 == null ? null : ETags.hex(sha256.digest());
        checksumResult = checksum == null ? null : checksum.result();
        onDone.accept(this);
    }

    @Override
    public void onAbort() {
        discard();
    }

    public boolean ended() {
        return ended;
    }

    /** The spool file, or null when the body is in memory ({@link #source()}). */
    public Path file() {
        return file;
    }

    /** The body as an upload source when it is kept in memory, else null ({@link #file()}). */
    public ByteSource source() {
        byte[] m = memory;
        if (m == null) {
            return null;
        }
        long n = size;
        return new ByteSource() {
            @Override
            public long size() {
                return n;
            }

            @Override
            public void read(long offset, ByteBuffer dst) {
                dst.put(m, (int) offset, dst.remaining());
            }
        };
    }

    public long size() {
        return size;
    }

    /** The body's MD5, once it ended. */
    public byte[] md5() {
        return md5Result;
    }

    /** The body's SHA-256 in hex, once it ended (null when it was not wanted). */
    public String sha256Hex() {
        return sha256Result;
    }

    private byte[] md5Result;
    private String sha256Result;
    private Checksums.Digest checksum;
    private byte[] checksumResult;

    /** Also computes {@code algorithm}'s checksum of the body (before any chunk arrives). */
    public void checksum(Checksums.Algorithm algorithm) {
        this.checksum = algorithm == null ? null : algorithm.digest();
    }

    /** The algorithm of the checksum computed, or null. */
    public Checksums.Algorithm checksumAlgorithm() {
        return checksum == null ? null : checksum.algorithm();
    }

    /** The body's additional checksum once it ended (null when none was asked for). */
    public byte[] checksumValue() {
        return checksumResult;
    }

    /** Removes the spool file (idempotent). */
    public void discard() {
        if (file == null) {
            if (grant != null) {
                grant.give(memory.length);
                grant = null;
            }
            return;
        }
        try {
            out.close();
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // best effort: the spool directory is emptied at start
        }
        release();
    }

    private void release() {
        if (room != null) {
            room.release();
        }
    }
}
