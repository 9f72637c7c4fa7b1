package geoblocks.node.s3.auth;

import geoblocks.net.FileGrant;
import geoblocks.node.http.Redact;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The S3 access keys made with {@code client key create}: each is the file {@code .s3-keys/KEYID}
 * (a small record stored inline in its manifest, so it travels with the manifest to every region
 * through the metadata engine and anti-entropy, as bucket records do). The record holds the key's
 * name, its creation time, whether it was revoked, its file grants (what a client authenticating by the key on
 * the file protocol may read and write: {@link FileGrant}, none by default), and its secret <b>encrypted</b> with AES-256-GCM
 * under a key derived from the cluster secret ({@code geoblocks.cluster.secret}, HMAC-SHA256 with a
 * fixed label), the key id as associated data (a ciphertext copied to another id does not open).
 * SigV4 needs the secret itself at the server, so a one-way hash would not do; a reader of a node's
 * disk without the config cannot recover a secret. Pure: no I/O; randomness is passed in.
 */
public final class AccessKeys {
    public static final String PREFIX = ".s3-keys/";
    static final String LABEL = "geoblocks s3 access-key secrets v1";
    private static final Pattern ID = Pattern.compile("GB[A-Z0-9]{18}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@+=-]{1,64}");
    private static final char[] ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();
    private static final int NONCE = 12;

    private final SecretKeySpec aes;

    /**
     * A record: {@code revokedMillis} 0 while the key is valid; {@code files} its file grants (a record written
     * before file grants has none, and a record with none is written as before them).
     */
    public record Key(String id, String name, String sealedSecret, long createdMillis, long revokedMillis,
            List<FileGrant> files) {
        public Key {
            files = List.copyOf(files);
        }

        public Key(String id, String name, String sealedSecret, long createdMillis, long revokedMillis) {
            this(id, name, sealedSecret, createdMillis, revokedMillis, List.of());
        }

        public boolean revoked() {
            return revokedMillis > 0;
        }

        public Key revoke(long at) {
            return new Key(id, name, sealedSecret, createdMillis, Math.max(1, at), files);
        }

        public byte[] encode() {
            return ("format=1\nid=" + id + "\nname=" + name + "\nsecret=" + sealedSecret + "\ncreated=" + createdMillis
                    + "\nrevoked=" + revokedMillis + "\n" + (files.isEmpty() ? "" : "files=" + FileGrant.format(files) + "\n"))
                    .getBytes(StandardCharsets.UTF_8);
        }

        public static Key decode(String id, byte[] bytes) throws IOException {
            Map<String, String> kv = new LinkedHashMap<>();
            for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    kv.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            if (!"1".equals(kv.get("format")) || !id.equals(kv.get("id")) || kv.get("secret") == null
                    || kv.get("name") == null) {
                throw new IOException("the record of access key '" + id + "' is damaged or of an unknown format");
            }
            try {
                return new Key(id, kv.get("name"), kv.get("secret"), Long.parseLong(kv.getOrDefault("created", "0")),
                        Long.parseLong(kv.getOrDefault("revoked", "0")), FileGrant.parseAll(kv.getOrDefault("files", "")));
            } catch (IllegalArgumentException e) { // NumberFormatException too
                throw new IOException("the record of access key '" + id + "' is damaged: " + e.getMessage(), e);
            }
        }
    }

    /** A new key with its secret in clear: shown once by the CLI, never stored so. */
    public record Created(Key key, String secret) {
        /** Without the secret: it is shown once, by the CLI, and never logged. */
        @Override
        public String toString() {
            return "Created[key=" + key + ", secret=" + Redact.secret(secret) + "]";
        }
    }

    /** Keys sealed under {@code clusterSecret} (the config's geoblocks.cluster.secret). */
    public AccessKeys(String clusterSecret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(clusterSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            this.aes = new SecretKeySpec(mac.doFinal(LABEL.getBytes(StandardCharsets.UTF_8)), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public static boolean validId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /** Null when {@code name} is a valid key name, else why not. */
    public static String nameProblem(String name) {
        return NAME.matcher(name).matches() ? null
                : "a key name is 1..64 characters of A-Z a-z 0-9 . _ @ + = -, was '" + name + "'";
    }

    public static String file(String id) {
        return PREFIX + id;
    }

    /** A new key named {@code name}: a 20-character id ({@code GB...}) and a 40-character secret from {@code random}. */
    public Created create(String name, long nowMillis, SecureRandom random) {
        return create(name, List.of(), nowMillis, random);
    }

    /** As above, the key allowed {@code files} on the file protocol. */
    public Created create(String name, List<FileGrant> files, long nowMillis, SecureRandom random) {
        String problem = nameProblem(name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        StringBuilder id = new StringBuilder("GB");
        for (int i = 0; i < 18; i++) {
            id.append(ID_CHARS[random.nextInt(ID_CHARS.length)]);
        }
        byte[] s = new byte[30];
        random.nextBytes(s);
        String secret = Base64.getEncoder().encodeToString(s).replace('+', 'A').replace('/', 'B'); // 40 characters
        return new Created(new Key(id.toString(), name, seal(id.toString(), secret, random), nowMillis, 0, files), secret);
    }

    /** {@code secret} encrypted for key {@code id}: {@code v1:} and base64 of nonce and ciphertext with its tag. */
    String seal(String id, String secret, SecureRandom random) {
        try {
            byte[] nonce = new byte[NONCE];
            random.nextBytes(nonce);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, aes, new GCMParameterSpec(128, nonce));
            c.updateAAD(id.getBytes(StandardCharsets.UTF_8));
            byte[] ct = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[NONCE + ct.length];
            System.arraycopy(nonce, 0, out, 0, NONCE);
            System.arraycopy(ct, 0, out, NONCE, ct.length);
            return "v1:" + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The secret of {@code key}; an IOException when it does not open (another cluster secret, or tampered). */
    public String open(Key key) throws IOException {
        String s = key.sealedSecret();
        try {
            if (!s.startsWith("v1:")) {
                throw new IOException("unknown sealing");
            }
            byte[] in = Base64.getDecoder().decode(s.substring(3));
            if (in.length <= NONCE + 16) {
                throw new IOException("too short");
            }
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, aes, new GCMParameterSpec(128, in, 0, NONCE));
            c.updateAAD(key.id().getBytes(StandardCharsets.UTF_8));
            return new String(c.doFinal(in, NONCE, in.length - NONCE), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IOException("the secret of access key '" + key.id() + "' does not open with this cluster's secret"
                    + " (sealed under another geoblocks.cluster.secret, or altered)");
        }
    }
}
