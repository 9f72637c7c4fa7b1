package geoblocks.app.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        NetworkSettings settings = NetworkSettings.from(com.typesafe.config.ConfigFactory.load());
        NetworkChoice choice = new NetworkChoice(settings, "secret-0123456789abcdef", NodeIdentity.NONE)
                .asPreviousRelease(previous);
        return new TreeMap<>(choice.init(NetAddress.of("127.0.0.1", 1)).codecs().offered());
    }

    @Test
    void aNodeOffersTheFileProtocolAndLedbat_andThePreviousReleaseOffersOneFileVersionLess() {
        assertEquals(Map.of(NetworkChoice.FILE_CODEC_ID, new VersionRange(3, 4), 110, VersionRange.only(2)), offered(false));
        assertEquals(Map.of(NetworkChoice.FILE_CODEC_ID, VersionRange.only(3), 110, VersionRange.only(2)), offered(true));
        assertEquals(null, NetworkChoice.codecs().versions(NetworkChoice.RTT_CODEC_ID), "the RTT probe has no version");
    }
}
