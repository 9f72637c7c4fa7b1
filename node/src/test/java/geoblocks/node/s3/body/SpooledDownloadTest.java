package geoblocks.node.s3.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.encryption.SseCipherTest;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A GET's body through its spool file: the bytes arrive whole, and an SSE object's plaintext never rests on disk. */
class SpooledDownloadTest {
    @TempDir
    Path dir;

    /** Streams {@code data} through a download; returns {what the client got, what the spool file held midway}. */
    byte[][] stream(byte[] data, boolean sealed) throws Exception {
        S3Settings settings = BodySpoolTest.settingsAt(dir);
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        SpooledDownload d = new SpooledDownload(ch.pipeline().firstContext(), settings, 0, data.length, true, sealed);
        int half = data.length / 2;
        d.write(0, Arrays.copyOfRange(data, 0, half));
        byte[] onDisk;
        try (Stream<Path> files = Files.list(dir.resolve("spool"))) {
            List<Path> all = files.toList();
            assertEquals(1, all.size(), all.toString());
            onDisk = Files.readAllBytes(all.get(0));
        }
        d.write(half, Arrays.copyOfRange(data, half, data.length));
        d.finish(null);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        boolean lastSeen = false;
        for (int i = 0; i < 100 && !lastSeen; i++) {
            ch.runPendingTasks();
            Object o;
            while ((o = ch.readOutbound()) != null) {
                ByteBuf b = ((HttpContent) o).content();
                byte[] chunk = new byte[b.readableBytes()];
                b.readBytes(chunk);
                got.writeBytes(chunk);
                lastSeen |= o instanceof LastHttpContent;
                ((HttpContent) o).release();
            }
        }
        return new byte[][] {got.toByteArray(), onDisk};
    }

    @Test
    void anSseObjectsPlaintext_isSealedInItsSpoolFile_andReachesTheClientWhole() throws Exception {
        byte[] data = new byte[300_000];
        new Random(7).nextBytes(data);
        byte[][] r = stream(data, true);
        assertArrayEquals(data, r[0]);
        assertEquals(150_000, r[1].length, "the first half was spooled");
        assertTrue(!Arrays.equals(Arrays.copyOf(data, 150_000), r[1]), "the spool holds no plaintext");
        assertTrue(SseCipherTest.indexOf(r[1], Arrays.copyOfRange(data, 1000, 1032)) < 0, "no run of the plaintext on disk");
    }

    @Test
    void aPlainObject_isSpooledAsItIs() throws Exception {
        byte[] data = new byte[200_000];
        new Random(8).nextBytes(data);
        byte[][] r = stream(data, false);
        assertArrayEquals(data, r[0]);
        assertArrayEquals(Arrays.copyOf(data, 100_000), r[1]);
    }
}
