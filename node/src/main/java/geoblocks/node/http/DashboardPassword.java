package geoblocks.node.http;

import geoblocks.net.SecretFile;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;

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
        return SecretFile.loadOrCreate(dataDir.resolve(FILE), "", random);
    }
}
