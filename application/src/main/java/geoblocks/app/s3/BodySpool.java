package geoblocks.app.s3;

import geoblocks.app.http.Exchange;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.function.Consumer;

/**
 * A request body spooled to a temp file as it streams in, with its MD5 (the ETag, and Content-MD5's
 * check) and SHA-256 (x-amz-content-sha256's check) computed on the way: memory stays at one chunk
 * whatever the size. More bytes than {@code limit} fail the body. When the body ends, {@code onDone}
 * gets this spool; on an error or a dropped connection the file is removed.
 */
public final class BodySpool implements Exchange.BodySink {
    private final Path file;
    private final FileChannel out;
    private final long limit;
    private final MessageDigest md5 = ETags.md5();
    private final MessageDigest sha256;
    private final Consumer<BodySpool> onDone;
    private long size;
    private boolean ended;

    /** {@code sha256}: whether the body's SHA-256 is wanted (a signed payload hash to check). */
    public BodySpool(S3Settings settings, long limit, boolean sha256, Consumer<BodySpool> onDone) throws IOException {
        this.file = settings.spoolFile("body-");
        this.out = FileChannel.open(file, StandardOpenOption.WRITE);
        this.limit = limit;
        this.onDone = onDone;
        try {
            this.sha256 = sha256 ? MessageDigest.getInstance("SHA-256") : null;
        } catch (java.security.NoSuchAlgorithmException e) {
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
        while (b.hasRemaining()) {
            out.write(b);
        }
        size += n;
    }

    @Override
    public void onEnd() throws IOException {
        ended = true;
        out.close();
        md5Result = md5.digest();
        sha256Result = sha256 == null ? null : ETags.hex(sha256.digest());
        onDone.accept(this);
    }

    @Override
    public void onAbort() {
        discard();
    }

    public boolean ended() {
        return ended;
    }

    public Path file() {
        return file;
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

    /** Removes the spool file (idempotent). */
    public void discard() {
        try {
            out.close();
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // best effort: the spool directory is emptied at start
        }
    }
}
