package geoblocks.node.net;

import com.typesafe.config.ConfigFactory;
import geoblocks.network.NetworkSettings;

/** The conformance suite on geoblocks' own network: messages up to {@code geoblocks.network.max-frame} minus its codec byte. */
class GeoNetworkConformanceTest extends NetworkConformanceTest {
    @Override
    LoopbackNetworks.Kind kind() {
        return LoopbackNetworks.Kind.GEO;
    }

    @Override
    int maxMessageBytes() {
        return NetworkSettings.from(ConfigFactory.load()).maxFrameBytes() - 1;
    }

    @Override
    UnreachableReport unreachableReport() {
        return UnreachableReport.NETWORK_EXCEPTION;
    }
}
