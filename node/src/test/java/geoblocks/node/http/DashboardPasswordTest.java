package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DashboardPasswordTest {
    @TempDir
    Path dir;

    @Test
    void madeOnce_keptOwnerOnly_andReadAgainAfterARestart() throws Exception {
        String first = DashboardPassword.loadOrCreate(dir, new SecureRandom());
        assertEquals(32, first.length());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(DashboardPassword.FILE))));
        assertEquals(first, DashboardPassword.loadOrCreate(dir, new SecureRandom()));
        assertNotEquals(first, DashboardPassword.loadOrCreate(dir.resolve("other"), new SecureRandom()));
    }

    @Test
    void anEmptyFile_isAClearError() throws Exception {
        Files.writeString(dir.resolve(DashboardPassword.FILE), "\n");
        assertThrows(IOException.class, () -> DashboardPassword.loadOrCreate(dir, new SecureRandom()));
    }

    @Test
    void settings_refuseTheS3SecretAsDashboardPassword_andTheDemoPasswordOffLoopback() {
        InetSocketAddress lo = new InetSocketAddress("127.0.0.1", 1);
        IllegalArgumentException same = assertThrows(IllegalArgumentException.class,
                () -> new HttpSettings(lo, "k", "the-secret", false, "admin", "the-secret"));
        assertEquals(true, same.getMessage().contains("must not be the S3 secret key"), same.getMessage());
        InetSocketAddress any = new InetSocketAddress("0.0.0.0", 1);
        assertThrows(IllegalArgumentException.class,
                () -> new HttpSettings(any, "k", "s3-secret", false, "admin", HttpSettings.DEMO_DASHBOARD_PASSWORD));
    }
}
