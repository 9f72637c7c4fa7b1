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

    @Test
    void clients_auto_takesKeysOnly_offLoopbackWhenEveryMemberProvesAKey() {
        NetworkSettings auto = NetworkSettings.from(ConfigFactory.load());
        assertFalse(auto.secretClients(false, true), "between hosts, every member keyed: clients by key only");
        assertTrue(auto.secretClients(true, true), "loopback (the demo): the cluster secret too");
        assertTrue(auto.secretClients(false, false), "a member without a key could be any secret holder");
        NetworkSettings keys = NetworkSettings.from(ConfigFactory.parseString("geoblocks.network.clients = keys")
                .withFallback(ConfigFactory.load()));
        assertFalse(keys.secretClients(true, true));
        assertThrows(IllegalArgumentException.class, () -> keys.secretClients(false, false), "needs every member's key");
        NetworkSettings both = NetworkSettings.from(ConfigFactory.parseString("geoblocks.network.clients = keys-or-secret")
                .withFallback(ConfigFactory.load()));
        assertTrue(both.secretClients(false, true));
        assertThrows(IllegalArgumentException.class, () -> NetworkSettings.from(ConfigFactory.parseString(
                "geoblocks.network.clients = nobody").withFallback(ConfigFactory.load())));
    }
}
