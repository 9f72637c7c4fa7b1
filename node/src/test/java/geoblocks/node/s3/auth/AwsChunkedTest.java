package geoblocks.node.s3.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.object.Checksums;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The aws-chunked decoder: AWS's signed example, round trips fed in random pieces, truncations and mutations (fixed seeds). */
class AwsChunkedTest {
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    static final AwsChunked.Seed AWS_SEED = new AwsChunked.Seed(SigV4.signingKey(SECRET, "20130524", "us-east-1", "s3"),
            "20130524T000000Z", "20130524/us-east-1/s3/aws4_request",
            "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");

    /** Decodes {@code encoded} fed in random pieces; returns the data (trailers into {@code trailers}). */
    static byte[] decode(AwsChunked d, byte[] encoded, Random r, Map<String, String> trailers) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int off = 0;
        while (off < encoded.length) {
            int n = Math.min(encoded.length - off, r == null ? encoded.length : 1 + r.nextInt(r.nextBoolean() ? 7 : 70_000));
            ByteBuffer in = ByteBuffer.wrap(encoded, off, n);
            d.feed(in, b -> {
                byte[] x = new byte[b.remaining()];
                b.get(x);
                out.writeBytes(x);
            });
            assertEquals(0, in.remaining());
            off += n;
        }
        Map<String, String> t = d.finish();
        if (trailers != null) {
            trailers.putAll(t);
        }
        return out.toByteArray();
    }

    /** AWS's example (65 KiB of 'a' in chunks of 64 KiB): the chunk signatures the documentation lists. */
    @Test
    void awsExample_signatures() throws Exception {
        byte[] data = new byte[65 * 1024];
        Arrays.fill(data, (byte) 'a');
        byte[] enc = AwsChunked.encode(data, 64 * 1024, AWS_SEED, null);
        String text = new String(enc, StandardCharsets.ISO_8859_1);
        assertTrue(text.startsWith("10000;chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648\r\n"));
        assertTrue(text.contains("400;chunk-signature=0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497\r\n"));
        assertTrue(text.endsWith("0;chunk-signature=b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9\r\n\r\n"));
        assertEquals(66824, enc.length); // the Content-Length of AWS's example
        assertArrayEquals(data, decode(new AwsChunked(AwsChunked.Mode.SIGNED, AWS_SEED, data.length), enc, new Random(1), null));
    }

    @Test
    void unsignedTrailer_asBoto3SendsIt() throws Exception {
        byte[] enc = "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:NhCmhg==\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        Map<String, String> t = new LinkedHashMap<>();
        assertArrayEquals("hello".getBytes(), decode(new AwsChunked(AwsChunked.Mode.UNSIGNED_TRAILER, null, 5), enc, null, t));
        assertEquals(Map.of("x-amz-checksum-crc32", "NhCmhg=="), t);
        assertEquals("NhCmhg==", Checksums.of(Checksums.Algorithm.CRC32, "hello".getBytes()));
    }

    /** Random bodies, chunk sizes, modes and feed splits decode to the data and trailers sent. */
    @Test
    void fuzz_roundTrips() throws Exception {
        Random r = new Random(2024);
        for (int round = 0; round < 300; round++) {
            byte[] data = new byte[r.nextInt(4) == 0 ? r.nextInt(10) : r.nextInt(200_000)];
            r.nextBytes(data);
            AwsChunked.Mode mode = AwsChunked.Mode.values()[r.nextInt(3)];
            AwsChunked.Seed seed = mode.signed() ? AWS_SEED : null;
            Map<String, String> trailers = null;
            if (mode != AwsChunked.Mode.SIGNED) {
                trailers = new LinkedHashMap<>();
                trailers.put("x-amz-checksum-crc64nvme", Checksums.of(Checksums.Algorithm.CRC64NVME, data));
            }
            byte[] enc = AwsChunked.encode(data, 1 + r.nextInt(70_000), seed, trailers);
            Map<String, String> got = new LinkedHashMap<>();
            byte[] out = decode(new AwsChunked(mode, seed, data.length), enc, r, got);
            assertArrayEquals(data, out, "round " + round);
            assertEquals(trailers == null ? Map.of() : trailers, got);
        }
    }

    /** Every strict prefix of a body is refused when it ends (never taken for the whole). */
    @Test
    void truncated_isRefused() throws Exception {
        Random r = new Random(5);
        byte[] data = new byte[3000];
        r.nextBytes(data);
        for (AwsChunked.Mode mode : AwsChunked.Mode.values()) {
            AwsChunked.Seed seed = mode.signed() ? AWS_SEED : null;
            byte[] enc = AwsChunked.encode(data, 1000, seed, mode == AwsChunked.Mode.SIGNED ? null
                    : Map.of("x-amz-checksum-crc32", Checksums.of(Checksums.Algorithm.CRC32, data)));
            for (int cut = 0; cut < enc.length; cut++) {
                byte[] prefix = Arrays.copyOf(enc, cut);
                S3Exception e = assertThrows(S3Exception.class,
                        () -> decode(new AwsChunked(mode, seed, data.length), prefix, null, null), mode + " cut at " + cut);
                assertEquals(S3Error.INCOMPLETE_BODY, e.error());
            }
        }
    }

    /**
     * A signed body with any one byte changed is refused, or (a hex digit of a signature changing
     * case) decodes to the same data: nothing else gets through.
     */
    @Test
    void fuzz_mutatedSignedBody_isRefused() throws Exception {
        Random r = new Random(99);
        for (AwsChunked.Mode mode : new AwsChunked.Mode[] {AwsChunked.Mode.SIGNED, AwsChunked.Mode.SIGNED_TRAILER}) {
            byte[] data = new byte[2500];
            r.nextBytes(data);
            Map<String, String> trailers = mode.trailer ? Map.of("x-amz-checksum-sha256", Checksums.of(Checksums.Algorithm.SHA256, data)) : null;
            byte[] enc = AwsChunked.encode(data, 700, AWS_SEED, trailers);
            for (int i = 0; i < 2000; i++) {
                byte[] bad = enc.clone();
                int at = r.nextInt(bad.length);
                bad[at] ^= (byte) (1 + r.nextInt(255));
                try {
                    Map<String, String> got = new LinkedHashMap<>();
                    byte[] out = decode(new AwsChunked(mode, AWS_SEED, data.length), bad, r, got);
                    assertArrayEquals(data, out, "a mutation at " + at + " got through");
                    assertEquals(trailers == null ? Map.of() : trailers, got);
                } catch (S3Exception e) {
                    assertTrue(e.error() == S3Error.INCOMPLETE_BODY || e.error() == S3Error.SIGNATURE_DOES_NOT_MATCH, e.toString());
                }
            }
        }
    }

    /** Random bytes never make the decoder fail other than with an S3 error, nor hand on more than announced. */
    @Test
    void fuzz_garbage_failsCleanly() throws Exception {
        Random r = new Random(31);
        for (int round = 0; round < 3000; round++) {
            byte[] junk = new byte[r.nextInt(300)];
            r.nextBytes(junk);
            if (r.nextBoolean()) { // mostly valid framing characters
                String alphabet = "0123456789abcdefABCDEF;=\r\n:x-";
                for (int i = 0; i < junk.length; i++) {
                    junk[i] = (byte) alphabet.charAt(r.nextInt(alphabet.length()));
                }
            }
            long[] handed = {0};
            AwsChunked d = new AwsChunked(AwsChunked.Mode.UNSIGNED_TRAILER, null, 50);
            try {
                d.feed(ByteBuffer.wrap(junk), b -> handed[0] += b.remaining());
                d.finish();
            } catch (S3Exception e) {
                assertTrue(e.error() == S3Error.INCOMPLETE_BODY, e.toString());
            } catch (Exception e) {
                fail("garbage " + round + " failed with " + e);
            }
            assertTrue(handed[0] <= 50);
        }
    }

    @Test
    void limits() throws Exception {
        AwsChunked big = new AwsChunked(AwsChunked.Mode.UNSIGNED_TRAILER, null, 10);
        assertEquals(S3Error.INCOMPLETE_BODY, assertThrows(S3Exception.class,
                () -> big.feed(ByteBuffer.wrap("b\r\n".getBytes()), b -> { })).error());
        AwsChunked longLine = new AwsChunked(AwsChunked.Mode.UNSIGNED_TRAILER, null, 10);
        assertThrows(S3Exception.class, () -> longLine.feed(ByteBuffer.wrap(new byte[AwsChunked.MAX_LINE + 1]), b -> { }));
        AwsChunked unsignedChunk = new AwsChunked(AwsChunked.Mode.SIGNED, AWS_SEED, 10);
        assertEquals(S3Error.SIGNATURE_DOES_NOT_MATCH, assertThrows(S3Exception.class,
                () -> unsignedChunk.feed(ByteBuffer.wrap("1\r\n".getBytes()), b -> { })).error());
        assertEquals(S3Error.NOT_IMPLEMENTED, assertThrows(S3Exception.class,
                () -> AwsChunked.mode("STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD")).error());
        assertEquals(null, AwsChunked.mode("UNSIGNED-PAYLOAD"));
        AwsChunked after = new AwsChunked(AwsChunked.Mode.UNSIGNED_TRAILER, null, 10);
        assertThrows(S3Exception.class, () -> after.feed(ByteBuffer.wrap("0\r\n\r\nx".getBytes()), b -> { }));
    }
}
