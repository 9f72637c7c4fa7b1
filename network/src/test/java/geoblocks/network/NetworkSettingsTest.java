package geoblocks.network;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class NetworkSettingsTest {
    final NetworkSettings defaults = NetworkSettings.from(ConfigFactory.load());

    @Test
    void auto_isTlsBetweenHosts_andPlainOnLoopback() {
        assertTrue(defaults.withSecurity("auto").tls(false));
        assertFalse(defaults.withSecurity("auto").tls(true));
        assertTrue(defaults.withSecurity("tls").tls(true));
    }

    @Test
    void auth_withItsUnprotectedFrames_isRefusedOffLoopback() {
        assertFalse(defaults.withSecurity("auth").tls(true));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> defaults.withSecurity("auth").tls(false));
        assertTrue(e.getMessage().contains("loopback only"), e.getMessage());
    }
}
