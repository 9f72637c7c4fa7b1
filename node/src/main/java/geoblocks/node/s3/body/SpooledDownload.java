package geoblocks.node.s3.body;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.node.s3.S3Settings;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A GET's body on its way from the node to the HTTP client without blocking either side: the
 * download's {@link ByteSink} (on the Kompics client thread) appends the requested range to a temp
 * file, and the connection's event loop sends what the file holds in chunks of {@value #CHUNK}
 * bytes while the channel is writable (Netty's high-water mark), resuming when a write completes.
 * Memory stays at a few chunks; the file holds at most the range. The download is ranged (only the
 * blocks covering the range are read), so writes carry only the range's bytes, at their offsets
 * in the object. A retried download streams the range again from its first byte: bytes already in
 * the file are skipped (the version is pinned, so they are the same). A client that goes away
 * fails the download at its next write; the file is removed at the end.
 *
 * <p>The plaintext of an encrypted (SSE) object never rests on disk: its download's file is sealed with
 * AES-256-CTR under a key and counter made for the download and kept only in memory ({@code sealed}); the
 * file is written and read strictly in order, so one cipher stream seals and another opens.
 */
public final class SpooledDownload implements ByteSink {
    static final int CHUNK = 64 * 1024;
    private final ChannelHandlerContext ctx;
    private final Path file;
    private final FileChannel out;
    private final FileChannel in;
    private final long first;
    private final long length;
    private final boolean keepAlive;
    private final AtomicLong written = new AtomicLong();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile boolean closed;
    private volatile String failure;
    private long sent;
    /** Seals what is written and opens what is read (the same key stream, in order); null: plaintext file. */
    private final Cipher sealer;
    private final Cipher opener;

    /** Streams bytes {@code first .. first+length-1} of the object to {@code ctx}, after the response head was sent. */
    public SpooledDownload(ChannelHandlerContext ctx, S3Settings settings, long first, long length, boolean keepAlive)
            throws IOException {
        this(ctx, settings, first, length, keepAlive, false);
    }

    /** As above; {@code sealed}: the file holds the bytes sealed under a key only this download has (SSE plaintext). */
    public SpooledDownload(ChannelHandlerContext ctx, S3Settings settings, long first, long length, boolean keepAlive,
            boolean sealed) throws IOException {
        this.ctx = ctx;
        if (sealed) {
            byte[] key = new byte[32];
            byte[] iv = new byte[16];
            SecureRandom random = new SecureRandom();
            random.nextBytes(key);
            random.nextBytes(iv);
            this.sealer = ctr(Cipher.ENCRYPT_MODE, key, iv);
            this.opener = ctr(Cipher.DECRYPT_MODE, key, iv);
            Arrays.fill(key, (byte) 0);
        } else {
            this.sealer = null;
            this.opener = null;
        }
        this.file = settings.spoolFile("get-");
        this.out = FileChannel.open(file, StandardOpenOption.WRITE);
        this.in = FileChannel.open(file, StandardOpenOption.READ);
        this.first = first;
        this.length = length;
        this.keepAlive = keepAlive;
        ctx.channel().closeFuture().addListener(f -> {
            if (sent < length) {
                failure = "the HTTP client closed the connection";
            }
            schedule();
        });
    }

    @Override
    public void begin() {
        // a retry streams from offset 0 again: write() skips what the file already has
    }

    @Override
    public void write(long offset, byte[] data) throws IOException {
        if (failure != null) {
            throw new IOException(failure);
        }
        long have = written.get();
        long from = Math.max(offset, first + have);
        long to = Math.min(offset + data.length, first + length);
        if (from >= to) {
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(data, (int) (from - offset), (int) (to - from));
        if (sealer != null) {
            b = ByteBuffer.wrap(sealer.update(data, (int) (from - offset), (int) (to - from)));
        }
        while (b.hasRemaining()) {
            out.write(b);
        }
        written.set(to - first);
        schedule();
    }

    /** The download ended: {@code error} null when every byte arrived and was verified. */
    public void finish(String error) {
        if (error != null && failure == null) {
            failure = error;
        }
        schedule();
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            ctx.executor().execute(this::pump);
        }
    }

    private void pump() {
        scheduled.set(false);
        if (closed) {
            return;
        }
        if (failure != null && sent < length) {
            close();
            ctx.close(); // the head announced more bytes: the client sees a short body
            return;
        }
        try {
            long have = written.get();
            while (sent < have && ctx.channel().isWritable()) {
                int n = (int) Math.min(CHUNK, have - sent);
                ByteBuf buf = ctx.alloc().buffer(n);
                if (opener == null) {
                    buf.writeBytes(in, sent, n);
                } else {
                    ByteBuffer sealedBytes = ByteBuffer.allocate(n);
                    while (sealedBytes.hasRemaining()) {
                        if (in.read(sealedBytes, sent + sealedBytes.position()) < 0) {
                            throw new IOException("the spool file ended before byte " + (sent + n));
                        }
                    }
                    buf.writeBytes(opener.update(sealedBytes.array()));
                }
                sent += n;
                ctx.writeAndFlush(new DefaultHttpContent(buf)).addListener(f -> schedule());
            }
        } catch (IOException e) {
            failure = "reading the spooled download failed: " + e;
            close();
            ctx.close();
            return;
        }
        if (sent == length) {
            close();
            if (keepAlive) {
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            } else {
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }

    private static Cipher ctr(int mode, byte[] key, byte[] iv) throws IOException {
        try {
            Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
            c.init(mode, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
            return c;
        } catch (GeneralSecurityException e) {
            throw new IOException("AES-CTR is not available to seal a spooled download: " + e.getMessage(), e);
        }
    }

    private void close() {
        closed = true;
        try {
            out.close();
            in.close();
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // best effort: the spool directory is emptied at start
        }
    }
}
