package geoblocks.node.s3.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The additional checksums, against the values Ceph's s3-tests expect, and their multipart combinations. */
public class ChecksumsTest {
    static byte[] filled(int n, char c) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) c);
        return b;
    }

    static final int MIB5 = 5 << 20;

    @Test
    void singleObjects_matchTheSuitesValues() {
        byte[] a = filled(1024, 'A');
        assertEquals("arcu6553sHVAiX4MjW0j7I7vD4w6R+Gz9Ok0Q9lTa+0=", Checksums.of(Checksums.Algorithm.SHA256, a));
        assertEquals("Qeh8oXvGiSo=", Checksums.of(Checksums.Algorithm.CRC64NVME, a));
        // the check values of the catalogue of CRCs ("123456789")
        byte[] check = "123456789".getBytes();
        assertEquals(0xCBF43926L, ByteBuffer.wrap(raw(Checksums.Algorithm.CRC32, check)).getInt() & 0xffffffffL);
        assertEquals(0xE3069283L, ByteBuffer.wrap(raw(Checksums.Algorithm.CRC32C, check)).getInt() & 0xffffffffL);
        assertEquals(0xAE8B14860A799888L, ByteBuffer.wrap(raw(Checksums.Algorithm.CRC64NVME, check)).getLong());
    }

    public static byte[] raw(Checksums.Algorithm a, byte[] data) {
        Checksums.Digest d = a.digest();
        d.update(data, 0, data.length);
        return d.result();
    }

    /** The suite's three parts of 5 MiB ('A', 'B', 'C') with each algorithm's part and object checksums. */
    @Test
    void multipart_matchesTheSuitesValues() {
        byte[][] bodies = {filled(MIB5, 'A'), filled(MIB5, 'B'), filled(MIB5, 'C')};
        check(Checksums.Algorithm.CRC32, Checksums.Type.FULL_OBJECT, bodies, "WgDhBQ==", "JRTCyQ==", "QoZTGg==", "YAgjqw==");
        check(Checksums.Algorithm.CRC32C, Checksums.Type.FULL_OBJECT, bodies, "xU+Krw==", "MDaLrw==", "TH4EZg==", "Z7mBIQ==");
        check(Checksums.Algorithm.CRC64NVME, Checksums.Type.FULL_OBJECT, bodies, "i+6LR0y3eFo=",
                "L/E4WYn8v98=", "xW1l19VobYM=", "cK5MnNaWrW4=");
        check(Checksums.Algorithm.SHA256, Checksums.Type.COMPOSITE, bodies, "uWBwpe1dxI4Vw8Gf0X9ynOdw/SS6VBzfWm9giiv1sf4=-3",
                "275VF5loJr1YYawit0XSHREhkFXYkkPKGuoK0x9VKxI=", "mrHwOfjTL5Zwfj74F05HOQGLdUb7E5szdCbxgUSq6NM=",
                "Vw7oB/nKQ5xWb3hNgbyfkvDiivl+U+/Dft48nfJfDow=");
        check(Checksums.Algorithm.SHA1, Checksums.Type.COMPOSITE, bodies, "sizjvY4eud3MrcHdZM3cQ/ol39o=-3",
                "iIaTCGbm+vdVjNqIMF2S0T7ibMk=", "LS/TJ32bAVKEwRu+sE3X7awh/lk=", "6DDwovUaHwrKNXDMzOGbuvj9kxI=");
    }

    private static void check(Checksums.Algorithm a, Checksums.Type t, byte[][] bodies, String whole, String... parts) {
        List<Checksums.Part> ps = new ArrayList<>();
        for (int i = 0; i < bodies.length; i++) {
            assertEquals(parts[i], Checksums.of(a, bodies[i]), a + " part " + (i + 1));
            ps.add(new Checksums.Part(raw(a, bodies[i]), bodies[i].length));
        }
        assertEquals(whole, Checksums.multipart(a, t, ps), a + " " + t);
    }

    /** A FULL_OBJECT CRC combined from random parts is the CRC of the whole (fixed seed). */
    @Test
    void combine_isTheCrcOfTheConcatenation() {
        Random r = new Random(24);
        for (Checksums.Algorithm a : List.of(Checksums.Algorithm.CRC32, Checksums.Algorithm.CRC32C, Checksums.Algorithm.CRC64NVME)) {
            for (int round = 0; round < 50; round++) {
                int n = 1 + r.nextInt(6);
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                List<Checksums.Part> ps = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    byte[] p = new byte[r.nextInt(3000)];
                    r.nextBytes(p);
                    all.writeBytes(p);
                    ps.add(new Checksums.Part(raw(a, p), p.length));
                }
                assertEquals(Checksums.of(a, all.toByteArray()), Checksums.multipart(a, Checksums.Type.FULL_OBJECT, ps));
            }
        }
    }

    /** Streaming in random pieces gives the checksum of the whole (CRC64NVME's slice-by-8 at any alignment). */
    @Test
    void streamed_inPieces_isTheSame() {
        Random r = new Random(7);
        byte[] data = new byte[20_000];
        r.nextBytes(data);
        for (Checksums.Algorithm a : Checksums.Algorithm.values()) {
            Checksums.Digest d = a.digest();
            int off = 0;
            while (off < data.length) {
                int n = Math.min(data.length - off, r.nextInt(50));
                d.update(ByteBuffer.wrap(data, off, n));
                off += n;
            }
            assertEquals(Checksums.of(a, data), Checksums.base64(d.result()), a.toString());
        }
    }

    @Test
    void stored_roundTrips_andStaysSmall() {
        Checksums.Stored s = new Checksums.Stored(Checksums.Algorithm.SHA256, Checksums.Type.COMPOSITE,
                "uWBwpe1dxI4Vw8Gf0X9ynOdw/SS6VBzfWm9giiv1sf4=-10000");
        assertEquals(s, Checksums.Stored.of(Map.of(Checksums.META, s.encode())));
        assertTrue(s.encode().length() + Checksums.META.length() <= 61);
        assertNull(Checksums.Stored.of(Map.of(Checksums.META, "md5 F x")));
        assertNull(Checksums.Stored.of(Map.of()));
        assertEquals(Map.of("x-amz-checksum-sha256", s.value(), "x-amz-checksum-type", "COMPOSITE"), s.headers());
    }

    @Test
    void matches_refusesBadBase64AndWrongLengths() {
        byte[] crc = raw(Checksums.Algorithm.CRC32, "x".getBytes());
        assertTrue(Checksums.matches(Checksums.Algorithm.CRC32, Checksums.base64(crc), crc));
        assertFalse(Checksums.matches(Checksums.Algorithm.CRC32, "bad", crc));
        assertFalse(Checksums.matches(Checksums.Algorithm.CRC32, "", crc));
        assertFalse(Checksums.matches(Checksums.Algorithm.CRC32, "AAAAAAAA", crc));
    }

    @Test
    void request_decidesFromHeaders() throws S3Exception {
        ChecksumRequest r = ChecksumRequest.of(Map.of("x-amz-checksum-crc32", "JRTCyQ==", "x-amz-sdk-checksum-algorithm", "CRC32"),
                false, null);
        assertEquals(Checksums.Algorithm.CRC32, r.algorithm());
        assertEquals("JRTCyQ==", r.value());
        byte[] actual = raw(Checksums.Algorithm.CRC32, filled(MIB5, 'A'));
        assertEquals("JRTCyQ==", r.verify(actual, null));
        assertEquals(S3Error.BAD_DIGEST, assertThrows(S3Exception.class,
                () -> r.verify(raw(Checksums.Algorithm.CRC32, filled(3, 'A')), null)).error());
        // only the algorithm: computed, nothing to compare
        ChecksumRequest sdk = ChecksumRequest.of(Map.of("x-amz-sdk-checksum-algorithm", "sha1"), false, null);
        assertEquals(Checksums.Algorithm.SHA1, sdk.algorithm());
        assertEquals(Checksums.of(Checksums.Algorithm.SHA1, new byte[0]), sdk.verify(raw(Checksums.Algorithm.SHA1, new byte[0]), null));
        // a trailer
        ChecksumRequest tr = ChecksumRequest.of(Map.of("x-amz-trailer", "x-amz-checksum-crc32c"), true, null);
        assertEquals("x-amz-checksum-crc32c", tr.trailer());
        byte[] c = raw(Checksums.Algorithm.CRC32C, "hi".getBytes());
        assertEquals(Checksums.base64(c), tr.verify(c, Map.of("x-amz-checksum-crc32c", Checksums.base64(c))));
        assertEquals(S3Error.INVALID_REQUEST, assertThrows(S3Exception.class, () -> tr.verify(c, Map.of())).error());
        assertEquals(S3Error.INVALID_REQUEST, assertThrows(S3Exception.class,
                () -> ChecksumRequest.of(Map.of("x-amz-trailer", "x-amz-checksum-crc32c"), false, null)).error());
        // two checksums, unknown ones, a mismatch with the upload's
        assertEquals(S3Error.INVALID_REQUEST, assertThrows(S3Exception.class,
                () -> ChecksumRequest.of(Map.of("x-amz-checksum-crc32", "a", "x-amz-checksum-sha1", "b"), false, null)).error());
        assertEquals(S3Error.INVALID_REQUEST, assertThrows(S3Exception.class,
                () -> ChecksumRequest.of(Map.of("x-amz-checksum-md5", "a"), false, null)).error());
        assertEquals(S3Error.INVALID_REQUEST, assertThrows(S3Exception.class,
                () -> ChecksumRequest.of(Map.of("x-amz-checksum-crc32", "a"), false, Checksums.Algorithm.SHA256)).error());
        assertEquals(Checksums.Algorithm.SHA256, ChecksumRequest.of(Map.of(), false, Checksums.Algorithm.SHA256).algorithm());
        assertTrue(ChecksumRequest.of(Map.of("x-amz-checksum-mode", "ENABLED"), false, null).none());
    }
}
