package geoblocks.node.s3.object;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * S3's additional checksums (CRC32, CRC32C, CRC64NVME, SHA-1, SHA-256): computing them while a body
 * streams, their base64 wire form, and the checksum of a multipart object, either COMPOSITE (the
 * checksum of the parts' binary checksums, then {@code -N}) or FULL_OBJECT (a CRC of the whole
 * object, combined from the parts' CRCs and sizes without reading the bytes again). Pure.
 */
public final class Checksums {
    private Checksums() {}

    /** The algorithms, by the name S3 uses in headers ({@code x-amz-checksum-crc32}) and XML ({@code ChecksumCRC32}). */
    public enum Algorithm {
        CRC32("crc32", "CRC32", true, 4),
        CRC32C("crc32c", "CRC32C", true, 4),
        CRC64NVME("crc64nvme", "CRC64NVME", true, 8),
        SHA1("sha1", "SHA1", false, 20),
        SHA256("sha256", "SHA256", false, 32);

        private final String lower;
        private final String upper;
        private final boolean crc;
        private final int bytes;

        Algorithm(String lower, String upper, boolean crc, int bytes) {
            this.lower = lower;
            this.upper = upper;
            this.crc = crc;
            this.bytes = bytes;
        }

        /** {@code crc32}: the suffix of the header {@code x-amz-checksum-crc32}. */
        public String lower() {
            return lower;
        }

        /** {@code CRC32}: as in {@code x-amz-sdk-checksum-algorithm} and {@code <ChecksumCRC32>}. */
        public String upper() {
            return upper;
        }

        public String header() {
            return "x-amz-checksum-" + lower;
        }

        public boolean crc() {
            return crc;
        }

        /** Bytes of one checksum. */
        public int bytes() {
            return bytes;
        }

        /** The algorithm named {@code s} (any case, as in headers), or null. */
        public static Algorithm parse(String s) {
            if (s == null) {
                return null;
            }
            String t = s.trim().toLowerCase(Locale.ROOT);
            for (Algorithm a : values()) {
                if (a.lower.equals(t)) {
                    return a;
                }
            }
            return null;
        }

        /** The algorithm of header {@code x-amz-checksum-ALG} (any case), or null. */
        public static Algorithm ofHeader(String name) {
            String n = name.toLowerCase(Locale.ROOT);
            return n.startsWith("x-amz-checksum-") ? parse(n.substring("x-amz-checksum-".length())) : null;
        }

        public Digest digest() {
            return new Digest(this);
        }
    }

    /** COMPOSITE (checksum of the parts' checksums, {@code -N}) or FULL_OBJECT (the whole object's). */
    public enum Type {
        COMPOSITE, FULL_OBJECT;

        /** The type named {@code s}, or null when s is null; IllegalArgumentException for another name. */
        public static Type parse(String s) {
            return s == null ? null : Type.valueOf(s.trim().toUpperCase(Locale.ROOT));
        }
    }

    /** A checksum being computed over streamed bytes. */
    public static final class Digest {
        private final Algorithm algorithm;
        private final Checksum zip;
        private final Crc64Nvme crc64;
        private final MessageDigest md;

        Digest(Algorithm a) {
            this.algorithm = a;
            this.zip = a == Algorithm.CRC32 ? new CRC32() : a == Algorithm.CRC32C ? new CRC32C() : null;
            this.crc64 = a == Algorithm.CRC64NVME ? new Crc64Nvme() : null;
            try {
                this.md = a == Algorithm.SHA1 ? MessageDigest.getInstance("SHA-1")
                        : a == Algorithm.SHA256 ? MessageDigest.getInstance("SHA-256") : null;
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        public Algorithm algorithm() {
            return algorithm;
        }

        /** Adds the remaining bytes of {@code b} (its position is left as it was). */
        public void update(ByteBuffer b) {
            ByteBuffer d = b.duplicate();
            if (zip != null) {
                zip.update(d);
            } else if (crc64 != null) {
                crc64.update(d);
            } else {
                md.update(d);
            }
        }

        public void update(byte[] b, int off, int len) {
            update(ByteBuffer.wrap(b, off, len));
        }

        /** The checksum's bytes (big-endian for CRCs, as S3 sends them). */
        public byte[] result() {
            if (zip != null) {
                return ByteBuffer.allocate(4).putInt((int) zip.getValue()).array();
            }
            if (crc64 != null) {
                return ByteBuffer.allocate(8).putLong(crc64.value()).array();
            }
            return md.digest();
        }
    }

    public static String base64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    /** The checksum of {@code data} in base64 (for tests and small bodies). */
    public static String of(Algorithm a, byte[] data) {
        Digest d = a.digest();
        d.update(data, 0, data.length);
        return base64(d.result());
    }

    /**
     * Whether {@code sent} (a header's or trailer's base64 value) is {@code actual}: a value that is not
     * base64 of the algorithm's length is simply not equal.
     */
    public static boolean matches(Algorithm a, String sent, byte[] actual) {
        if (sent == null) {
            return false;
        }
        byte[] want;
        try {
            want = Base64.getDecoder().decode(sent.trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
        return want.length == a.bytes() && MessageDigest.isEqual(want, actual);
    }

    /** The raw bytes of a base64 checksum of {@code a}, or null when it is not one. */
    static byte[] decode(Algorithm a, String b64) {
        try {
            byte[] b = Base64.getDecoder().decode(b64.trim());
            return b.length == a.bytes() ? b : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** One part's checksum and size, for a multipart object's checksum. */
    public record Part(byte[] checksum, long size) {}

    /**
     * The checksum of a multipart object made of {@code parts} (in order): COMPOSITE is the checksum of
     * the concatenated part checksums, base64, then {@code -N}; FULL_OBJECT (CRCs only) is the CRC of
     * the whole object, combined from the parts' CRCs and sizes.
     */
    public static String multipart(Algorithm a, Type type, List<Part> parts) {
        if (type == Type.FULL_OBJECT) {
            if (!a.crc()) {
                throw new IllegalArgumentException(a + " has no FULL_OBJECT checksum for multipart uploads");
            }
            long crc = 0;
            boolean first = true;
            for (Part p : parts) {
                long c = a.bytes() == 4 ? ByteBuffer.wrap(p.checksum()).getInt() & 0xffffffffL : ByteBuffer.wrap(p.checksum()).getLong();
                crc = first ? c : combine(a, crc, c, p.size());
                first = false;
            }
            return base64(a.bytes() == 4 ? ByteBuffer.allocate(4).putInt((int) crc).array()
                    : ByteBuffer.allocate(8).putLong(crc).array());
        }
        Digest d = a.digest();
        for (Part p : parts) {
            d.update(p.checksum(), 0, p.checksum().length);
        }
        return base64(d.result()) + "-" + parts.size();
    }

    /** The default checksum type of a multipart upload with algorithm {@code a} (S3's: FULL_OBJECT only for CRC64NVME). */
    public static Type defaultType(Algorithm a) {
        return a == Algorithm.CRC64NVME ? Type.FULL_OBJECT : Type.COMPOSITE;
    }

    /** Whether S3 allows {@code type} with {@code a} (FULL_OBJECT: CRCs; COMPOSITE: all but CRC64NVME). */
    public static boolean allowed(Algorithm a, Type type) {
        return type == Type.FULL_OBJECT ? a.crc() : a != Algorithm.CRC64NVME;
    }

    /** The reflected polynomial of a CRC algorithm. */
    private static long poly(Algorithm a) {
        return switch (a) {
            case CRC32 -> 0xEDB88320L;
            case CRC32C -> 0x82F63B78L;
            case CRC64NVME -> 0x9A6C9329AC4BC9B5L;
            default -> throw new IllegalArgumentException(a + " is not a CRC");
        };
    }

    /**
     * The CRC of A followed by B from crc(A), crc(B) and B's length (zlib's crc32_combine, for any
     * reflected CRC with all-ones init and final xor): crc(A) times x^(8 len(B)) mod P, xor crc(B).
     */
    static long combine(Algorithm a, long crcA, long crcB, long lenB) {
        int width = a.bytes() * 8;
        long p = poly(a);
        long result = 1L << (width - 1); // x^0 in the reflected representation
        long base = 1L << (width - 1 - 8); // x^8
        for (long n = lenB; n != 0; n >>>= 1) {
            if ((n & 1) != 0) {
                result = multiply(result, base, p, width);
            }
            base = multiply(base, base, p, width);
        }
        return multiply(result, crcA, p, width) ^ crcB;
    }

    /** a times b modulo the polynomial, both reflected, {@code width} bits. */
    private static long multiply(long a, long b, long poly, int width) {
        long m = 1L << (width - 1);
        long prod = 0;
        while (m != 0) {
            if ((a & m) != 0) {
                prod ^= b;
            }
            m >>>= 1;
            b = (b & 1) != 0 ? (b >>> 1) ^ poly : b >>> 1;
        }
        return prod;
    }

    /** CRC-64/NVME (reflected polynomial 0x9A6C9329AC4BC9B5, init and final xor all ones), slice-by-8. */
    static final class Crc64Nvme {
        private static final long[][] TABLE = new long[8][256];

        static {
            long p = 0x9A6C9329AC4BC9B5L;
            for (int i = 0; i < 256; i++) {
                long c = i;
                for (int k = 0; k < 8; k++) {
                    c = (c & 1) != 0 ? (c >>> 1) ^ p : c >>> 1;
                }
                TABLE[0][i] = c;
            }
            for (int i = 0; i < 256; i++) {
                for (int t = 1; t < 8; t++) {
                    TABLE[t][i] = (TABLE[t - 1][i] >>> 8) ^ TABLE[0][(int) (TABLE[t - 1][i] & 0xff)];
                }
            }
        }

        private long crc = -1L;

        void update(ByteBuffer b) {
            long c = crc;
            ByteBuffer le = b.slice().order(ByteOrder.LITTLE_ENDIAN);
            while (le.remaining() >= 8) {
                long v = c ^ le.getLong();
                c = TABLE[7][(int) (v & 0xff)] ^ TABLE[6][(int) ((v >>> 8) & 0xff)] ^ TABLE[5][(int) ((v >>> 16) & 0xff)]
                        ^ TABLE[4][(int) ((v >>> 24) & 0xff)] ^ TABLE[3][(int) ((v >>> 32) & 0xff)]
                        ^ TABLE[2][(int) ((v >>> 40) & 0xff)] ^ TABLE[1][(int) ((v >>> 48) & 0xff)]
                        ^ TABLE[0][(int) (v >>> 56)];
            }
            while (le.hasRemaining()) {
                c = (c >>> 8) ^ TABLE[0][(int) ((c ^ le.get()) & 0xff)];
            }
            b.position(b.limit());
            crc = c;
        }

        long value() {
            return ~crc;
        }
    }

    /** Metadata key of a version's additional checksum ({@link Stored#encode}). */
    public static final String META = "ck";

    /**
     * A version's additional checksum as kept in its metadata (which is small:
     * {@code Manifest.MAX_META_BYTES}): {@code ALG T VALUE}, T being {@code F} (FULL_OBJECT) or
     * {@code C} (COMPOSITE), e.g. {@code crc32 F 3NzE9w==} or {@code sha256 C …=-3}.
     */
    public record Stored(Algorithm algorithm, Type type, String value) {
        public String encode() {
            return algorithm.lower() + " " + type.name().charAt(0) + " " + value;
        }

        /** The checksum kept in {@code meta}, or null (also for a value this gateway cannot read). */
        public static Stored of(Map<String, String> meta) {
            String s = meta.get(META);
            if (s == null) {
                return null;
            }
            String[] p = s.split(" ");
            if (p.length != 3 || Algorithm.parse(p[0]) == null) {
                return null;
            }
            Type t = p[1].equals("F") ? Type.FULL_OBJECT : p[1].equals("C") ? Type.COMPOSITE : null;
            return t == null ? null : new Stored(Algorithm.parse(p[0]), t, p[2]);
        }

        /** The response headers that show it ({@code x-amz-checksum-ALG} and {@code x-amz-checksum-type}). */
        public Map<String, String> headers() {
            return Map.of(algorithm.header(), value, "x-amz-checksum-type", type.name());
        }
    }
}
