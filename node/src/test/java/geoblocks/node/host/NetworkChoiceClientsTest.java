package geoblocks.node.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.network.session.NodeIdentity;
import geoblocks.node.AppConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whether a config's members all prove node keys (so geoblocks.network.clients = auto can take clients by access
 * key only off loopback), and the client's choice by access key, which stands in for the cluster secret.
 */
class NetworkChoiceClientsTest {
    @TempDir
    Path dir;

    private AppConfig config(boolean dublinKeyed) throws Exception {
        String seoul = NodeIdentity.format(NodeIdentity.generate().getPublic());
        String dublin = NodeIdentity.format(NodeIdentity.generate().getPublic());
        Path f = dir.resolve("c" + dublinKeyed + ".conf");
        Files.writeString(f, """
                geoblocks.cluster.secret = "network-choice-clients-0123"
                geoblocks.cluster.regions = [
                  { id = seoul,  address = "10.0.0.1:47100", key = "%s" }
                  { id = dublin, address = "10.0.0.2:47100" %s }
                ]
                """.formatted(seoul, dublinKeyed ? ", key = \"" + dublin + "\"" : ""));
        return AppConfig.load(f);
    }

    @Test
    void everyMemberKeyed_onlyWhenTheConfigNamesEveryRegionsKey() throws Exception {
        assertTrue(NetworkChoice.of(config(true)).identity().everyMemberKeyed());
        assertFalse(NetworkChoice.of(config(false)).identity().everyMemberKeyed(), "dublin proves the secret only");
        assertTrue(NetworkChoice.of(config(false)).identity().keyed());
    }

    @Test
    void aClientByAccessKey_usesItsKeysSecret_notTheClusterSecret() throws Exception {
        String secret = "0123456789abcdefghij0123456789abcdefghij";
        NetworkChoice n = NetworkChoice.ofClient(config(true), Map.of(ClientAccess.KEY_ENV, "GBKEY",
                ClientAccess.SECRET_ENV, secret));
        assertEquals("GBKEY", n.access().id());
        assertEquals(secret, n.secret());
        assertFalse(n.toString().contains(secret));
        assertNull(NetworkChoice.ofClient(config(true), Map.of()).access());
    }
}
