package geoblocks.app.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The dashboard password a node makes for itself when the config sets none: 24 random bytes (base64url,
 * 32 characters), kept in {@code DATA/dashboard-password} with owner-only permissions, written to a
 * temporary file and renamed into place, so a node reads the same password after every restart.
 */
public final class DashboardPassword {
    public static final String FILE = "dashboard-password";

    private DashboardPassword() {}

    /** The password kept in {@code dataDir}, made and kept there first when there is none. */
    public static String loadOrCreate(Path dataDir, SecureRandom random) throws IOException {
        Path file = dataDir.resolve(FILE);
        if (Files.exists(file)) {
            String p = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (p.isEmpty()) {
                throw new IOException(file + " is empty: delete it and the node makes a new dashboard password");
            }
            return p;
        }
        byte[] b = new byte[24];
        random.nextBytes(b);
        String p = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
        geoblocks.net.SecretFile.write(file, p + "\n");
        return p;
    }
}
