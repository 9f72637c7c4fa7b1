package geoblocks.node.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.VersionRange;
import geoblocks.network.CodecRegistry;
import geoblocks.network.NetworkSettings;
import geoblocks.network.session.NodeIdentity;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What a node's handshake offers: the file protocol (3-4) and LEDBAT (2), by their codec ids; the RTT
 * probe has no version and is not offered. Played as the previous release, the file protocol's top is 3.
 */
class NetworkChoiceVersionsTest {
    private static Map<Integer, VersionRange> offered(boolean previous) {
        NetworkSettings settings = NetworkSettings.from(ConfigFactory.load());
        NetworkChoice choice = new NetworkChoice(settings, "secret-0123456789abcdef", NodeIdentity.NONE)
                .asPreviousRelease(previous);
        return new TreeMap<>(choice.init(NetAddress.of("127.0.0.1", 1)).codecs().offered());
    }

    @Test
    void aNodeOffersTheFileProtocolLedbatAndTheRttProbe_andThePreviousReleaseWhat0_2Speaks() {
        assertEquals(Map.of(NetworkChoice.FILE_CODEC_ID, new VersionRange(3, 5), 110, VersionRange.only(2),
                NetworkChoice.RTT_CODEC_ID, new VersionRange(1, 2)), offered(false));
        // 0.2.0 offers file protocol 3-4 and LEDBAT 2; its RTT probe (version 1) offers no range: playing it, the
        // probe's range is pinned at 1, which a peer's missing offer leaves it at anyway
        assertEquals(Map.of(NetworkChoice.FILE_CODEC_ID, new VersionRange(3, 4), 110, VersionRange.only(2),
                NetworkChoice.RTT_CODEC_ID, VersionRange.only(1)), offered(true));
    }
}
