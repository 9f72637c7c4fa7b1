package geoblocks.node.s3.encryption;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SSE-S3 cluster keys, read from the file {@code geoblocks.s3.sse.key-file} (kept outside the data
 * directories, the same file at every node): one key a line, {@code ID BASE64} where ID is 1..16 of
 * {@code A-Za-z0-9_.-} and BASE64 decodes to 32 bytes; blank lines and lines starting with {@code #}
 * are skipped. The first key encrypts new objects; every key listed decrypts (an object names the id of
 * its key), so a key is rotated by putting a new first line and keeping the old ones. Pure apart from {@link #read}.
 */
public record SseKeyFile(String currentId, Map<String, byte[]> keys) {
    /** No key file: SSE-S3 is refused. */
    public static final SseKeyFile NONE = new SseKeyFile(null, Map.of());

    static boolean validId(String id) {
        return id != null && id.matches("[A-Za-z0-9_.-]{1,16}");
    }

    public static SseKeyFile read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** The keys {@code text} lists; IllegalArgumentException naming the line for a bad one. */
    static SseKeyFile parse(String text, String where) {
        Map<String, byte[]> keys = new LinkedHashMap<>();
        String first = null;
        int n = 0;
        for (String raw : text.split("\n", -1)) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (f.length != 2 || !validId(f[0])) {
                throw new IllegalArgumentException(where + " line " + n + ": expected 'ID BASE64-OF-32-BYTES' with an ID of 1..16"
                        + " characters A-Z a-z 0-9 _ . -");
            }
            byte[] key;
            try {
                key = Base64.getDecoder().decode(f[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + " line " + n + ": the key is not base64");
            }
            if (key.length != 32) {
                throw new IllegalArgumentException(where + " line " + n + ": the key has " + key.length
                        + " bytes, SSE-S3 keys have 32 (openssl rand -base64 32)");
            }
            if (keys.put(f[0], key) != null) {
                throw new IllegalArgumentException(where + " line " + n + ": key id '" + f[0] + "' is listed twice");
            }
            if (first == null) {
                first = f[0];
            }
        }
        if (first == null) {
            throw new IllegalArgumentException(where + " lists no key");
        }
        return new SseKeyFile(first, Map.copyOf(keys));
    }

    boolean configured() {
        return currentId != null;
    }

    /** The cluster key {@code id}, or null when this file does not list it. */
    byte[] key(String id) {
        return keys.get(id);
    }

    @Override
    public String toString() {
        return "SseKeyFile[current=" + currentId + ", ids=" + keys.keySet() + "]"; // never the keys
    }
}
