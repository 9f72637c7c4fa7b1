package geoblocks.node.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a client's access key comes from: the environment, else the config; both halves or neither. */
class ClientAccessTest {
    private static final String SECRET = "0123456789abcdefghij0123456789abcdefghij";
    private static final Config WITH_KEY = ConfigFactory.parseMap(Map.of("geoblocks.client.access-key", "GBCONFIG",
            "geoblocks.client.secret-key", SECRET));

    @Test
    void theEnvironment_winsOverTheConfig() {
        ClientAccess a = ClientAccess.from(WITH_KEY, Map.of(ClientAccess.KEY_ENV, "GBENV", ClientAccess.SECRET_ENV, SECRET));
        assertEquals("GBENV", a.id());
        assertEquals("GBCONFIG", ClientAccess.from(WITH_KEY, Map.of()).id());
    }

    @Test
    void noKeyAnywhere_isNone_andHalfAKeyIsRefused() {
        assertNull(ClientAccess.from(ConfigFactory.empty(), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> ClientAccess.from(ConfigFactory.empty(),
                Map.of(ClientAccess.KEY_ENV, "GBENV")));
        assertThrows(IllegalArgumentException.class, () -> ClientAccess.from(ConfigFactory.parseMap(
                Map.of("geoblocks.client.secret-key", SECRET)), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new ClientAccess("GBENV", "short"));
    }

    @Test
    void theSecret_isNeverPrinted() {
        assertFalse(new ClientAccess("GBENV", SECRET).toString().contains(SECRET));
    }
}
