package geoblocks.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * A file that holds a secret (a node key, a dashboard password): written whole to a temporary file
 * that only its owner may read, fsync'ed, renamed into place and the directory fsync'ed, so it is never
 * seen half-written or with wider permissions, and a power cut after {@link #write} returns leaves it
 * whole (without the fsync a cut left the renamed file empty: scripts/power-loss.sh, the node key).
 */
public final class SecretFile {
    private SecretFile() {}

    /** Writes {@code text} (UTF-8) to {@code file} as described; creates its directory. */
    public static void write(Path file, String text) throws IOException {
        DurableFile.replace(file, text.getBytes(StandardCharsets.UTF_8), tmp -> {
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the directory's own permissions guard it
            }
        });
    }

    /**
     * The secret kept in {@code file}; when there is none, {@code prefix} and 24 random bytes (base64url),
     * written there first as above, so the same secret is read after every restart. An empty file is an
     * error naming it (delete it and a new secret is made).
     */
    public static String loadOrCreate(Path file, String prefix, SecureRandom random) throws IOException {
        if (Files.exists(file)) {
            String p = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (p.isEmpty()) {
                throw new IOException(file + " is empty: delete it and the node makes a new secret there");
            }
            return p;
        }
        byte[] b = new byte[24];
        random.nextBytes(b);
        String p = prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
        write(file, p + "\n");
        return p;
    }
}
