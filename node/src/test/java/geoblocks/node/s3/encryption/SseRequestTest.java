package geoblocks.node.s3.encryption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** SSE headers ({@link SseRequest}), the kept parameters and key checks ({@link SseParams}), cluster key files, bucket defaults. */
class SseRequestTest {
    // the key and MD5 Ceph's s3-tests use
    static final String KEY = "pO3upElrwuEXSoFwCfnZPdSsmt/xWeFa0N9KgDijwVs=";
    static final String MD5 = "DWygnHRtgiJ77HCm+1rvHw==";
    static final String KEY2 = "6b+WOZ1T3cqZMxgThRcXAQBrS5mXKdDUphvpxptl9/4=";

    static Map<String, String> customer(String prefix, String alg, String key, String md5) {
        Map<String, String> h = new HashMap<>();
        if (alg != null) {
            h.put(prefix + "algorithm", alg);
        }
        if (key != null) {
            h.put(prefix + "key", key);
        }
        if (md5 != null) {
            h.put(prefix + "key-md5", md5);
        }
        return h;
    }

    static S3Error code(Map<String, String> h) {
        S3Exception e = assertThrows(S3Exception.class, () -> SseRequest.write(h::get));
        return e.error();
    }

    @Test
    void writes_sseC_sseS3_orNone() throws S3Exception {
        SseRequest c = SseRequest.write(customer(SseRequest.CUSTOMER, "AES256", KEY, MD5)::get);
        assertEquals(SseRequest.Kind.C, c.kind());
        assertArrayEquals(Base64.getDecoder().decode(KEY), c.customerKey());
        assertEquals(MD5, c.customerKeyMd5());
        assertFalse(c.toString().contains(KEY), "the key is never shown");
        assertEquals(SseRequest.Kind.S3, SseRequest.write(Map.of(SseRequest.SSE, "AES256")::get).kind());
        assertEquals(SseRequest.Kind.NONE, SseRequest.write(Map.<String, String>of()::get).kind());
    }

    @Test
    void badWrites_getS3sErrors() {
        assertEquals(S3Error.INVALID_ARGUMENT, code(customer(SseRequest.CUSTOMER, "AES256", KEY, "AAAAAAAAAAAAAAAAAAAAAA==")));
        assertEquals(S3Error.INVALID_ARGUMENT, code(customer(SseRequest.CUSTOMER, "AES256", KEY, null)));
        assertEquals(S3Error.INVALID_ARGUMENT, code(customer(SseRequest.CUSTOMER, "AES256", null, MD5)));
        assertEquals(S3Error.INVALID_ARGUMENT, code(customer(SseRequest.CUSTOMER, null, KEY, MD5)));
        assertEquals(S3Error.INVALID_ARGUMENT, code(customer(SseRequest.CUSTOMER, "AES256", "not base64!", MD5)));
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
        assertEquals(S3Error.INVALID_ARGUMENT, code(customer(SseRequest.CUSTOMER, "AES256", shortKey,
                SseRequest.md5(new byte[16]))));
        assertEquals(S3Error.INVALID_ENCRYPTION_ALGORITHM, code(customer(SseRequest.CUSTOMER, "AES128", KEY, MD5)));
        Map<String, String> both = customer(SseRequest.CUSTOMER, "AES256", KEY, MD5);
        both.put(SseRequest.SSE, "AES256");
        assertEquals(S3Error.INVALID_ARGUMENT, code(both));
        both.put(SseRequest.SSE, "aws:kms");
        assertEquals(S3Error.INVALID_ARGUMENT, code(both));
        assertEquals(S3Error.NOT_IMPLEMENTED, code(Map.of(SseRequest.SSE, "aws:kms")));
        assertEquals(S3Error.INVALID_ARGUMENT, code(Map.of(SseRequest.SSE, "aes:kms")));
        assertEquals(S3Error.INVALID_ARGUMENT, code(Map.of(SseRequest.SSE, "AES256",
                "x-amz-server-side-encryption-aws-kms-key-id", "k1")));
    }

    @Test
    void reads_takeAKey_refuseSseS3Headers_andCopySourcesHaveTheirOwnHeaders() throws S3Exception {
        assertEquals(SseRequest.Kind.C, SseRequest.read(customer(SseRequest.CUSTOMER, "AES256", KEY, MD5)::get).kind());
        assertEquals(SseRequest.Kind.NONE, SseRequest.read(Map.<String, String>of()::get).kind());
        assertThrows(S3Exception.class, () -> SseRequest.read(Map.of(SseRequest.SSE, "AES256")::get));
        Map<String, String> copy = customer(SseRequest.COPY_CUSTOMER, "AES256", KEY, MD5);
        assertEquals(SseRequest.Kind.C, SseRequest.copySource(copy::get).kind());
        assertEquals(SseRequest.Kind.NONE, SseRequest.write(copy::get).kind(), "a source's key is not the destination's");
        assertThrows(S3Exception.class, () -> SseRequest.copySource(customer(SseRequest.COPY_CUSTOMER, "AES256", KEY, null)::get));
    }

    @Test
    void params_roundTrip_checkTheKey_andKeepNoKey() throws IOException {
        byte[] k1 = Base64.getDecoder().decode(KEY);
        byte[] k2 = Base64.getDecoder().decode(KEY2);
        SseParams c = SseParams.newC(k1, new Random(1));
        String enc = c.encode();
        assertFalse(enc.contains(KEY), enc);
        assertTrue(enc.length() <= 48, "fits a version's small metadata: " + enc);
        SseParams back = SseParams.of(Map.of(SseParams.META, enc));
        assertEquals(c, back);
        assertTrue(back.keyMatches(k1));
        assertFalse(back.keyMatches(k2));
        assertArrayEquals(c.dataKey(k1), back.dataKey(k1));
        assertFalse(Arrays.equals(c.dataKey(k1), k1), "the data key is derived, not the client's key");
        SseParams c2 = SseParams.newC(k1, new Random(2));
        assertFalse(Arrays.equals(c.dataKey(k1), c2.dataKey(k1)), "each object has its own data key");
        SseParams s = SseParams.newS3("k1", new Random(3));
        assertEquals(s, SseParams.of(Map.of(SseParams.META, s.encode())));
        assertFalse(s.keyMatches(k1));
        assertNull(SseParams.of(Map.of()));
        assertThrows(IOException.class, () -> SseParams.of(Map.of(SseParams.META, "C1 !!! ???")));
        assertThrows(IOException.class, () -> SseParams.of(Map.of(SseParams.META, "X9 a b")));
        assertThrows(IOException.class, () -> SseParams.of(Map.of(SseParams.META, "C1 AAAA AAAA")));
    }

    @Test
    void keyedEtags_hideTheMd5_keepThePartCount_andDependOnTheKey() {
        byte[] d1 = new byte[32];
        byte[] d2 = new byte[32];
        d2[0] = 1;
        String md5 = "0123456789abcdef0123456789abcdef";
        String e = SseParams.keyedEtag(md5, d1);
        assertEquals(32, e.length());
        assertNotEquals(md5, e);
        assertEquals(e, SseParams.keyedEtag(md5, d1));
        assertNotEquals(e, SseParams.keyedEtag(md5, d2));
        assertTrue(SseParams.keyedEtag(md5 + "-3", d1).endsWith("-3"));
    }

    @Test
    void keyFiles_listKeys_theFirstEncrypts_andBadLinesAreNamed() {
        String k1 = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
        String k2 = Base64.getEncoder().encodeToString(new byte[32]);
        SseKeyFile f = SseKeyFile.parse("# keys\n\nk2 " + k2 + "\nk1 " + k1 + "\n", "keys");
        assertEquals("k2", f.currentId());
        assertArrayEquals(new byte[32], f.key("k2"));
        assertEquals(32, f.key("k1").length);
        assertNull(f.key("k3"));
        assertFalse(f.toString().contains(k1), "keys are never shown");
        assertTrue(f.configured());
        assertFalse(SseKeyFile.NONE.configured());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SseKeyFile.parse("k1 " + k1 + "\nk2 abc\n", "f"));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SseKeyFile.parse("k1 " + k1 + "\nk1 " + k2, "f"));
        assertThrows(IllegalArgumentException.class, () -> SseKeyFile.parse("bad/id " + k1, "f"));
        assertThrows(IllegalArgumentException.class, () -> SseKeyFile.parse("# nothing\n", "f"));
    }

    @Test
    void bucketDefaults_parseAes256_refuseKms_andLiveInTheBucketRecord() throws Exception {
        String doc = "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>%s"
                + "</SSEAlgorithm></ApplyServerSideEncryptionByDefault></Rule></ServerSideEncryptionConfiguration>";
        S3Encryption.parseConfiguration(String.format(doc, "AES256").getBytes(StandardCharsets.UTF_8));
        assertEquals(S3Error.NOT_IMPLEMENTED, assertThrows(S3Exception.class, () -> S3Encryption.parseConfiguration(
                String.format(doc, "aws:kms").getBytes(StandardCharsets.UTF_8))).error());
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> S3Encryption.parseConfiguration(
                String.format(doc, "DES").getBytes(StandardCharsets.UTF_8))).error());
        assertEquals(S3Error.MALFORMED_XML, assertThrows(S3Exception.class, () -> S3Encryption.parseConfiguration(
                "<ServerSideEncryptionConfiguration/>".getBytes(StandardCharsets.UTF_8))).error());
        BucketMeta b = new BucketMeta("b", "seoul", "local", 1 << 20, false, 1L).withEncryption(BucketMeta.SSE_S3);
        BucketMeta back = BucketMeta.decode("b", b.encode());
        assertEquals(BucketMeta.SSE_S3, back.encryption());
        assertNull(BucketMeta.decode("b", back.withEncryption(null).encode()).encryption());
    }

    @Test
    void plainSizes_ofListingsAndAttributes() {
        assertEquals(1000, S3Encryption.plainSize(Map.of(SseParams.META, "S1 k1 AAAAAAAAAAAAAAAAAAAAAA"), 1016));
        assertEquals(1016, S3Encryption.plainSize(Map.of(), 1016));
    }
}
