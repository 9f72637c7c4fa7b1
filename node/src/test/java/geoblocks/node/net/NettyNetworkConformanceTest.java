package geoblocks.node.net;

/**
 * The conformance suite on Kompics' NettyNetwork with our serializer ({@code CodecSerializer}):
 * its TCP frames hold at most 65,536 bytes, of which its own framing takes a few.
 */
class NettyNetworkConformanceTest extends NetworkConformanceTest {
    @Override
    LoopbackNetworks.Kind kind() {
        return LoopbackNetworks.Kind.NETTY;
    }

    @Override
    int maxMessageBytes() {
        return 65_000;
    }

    @Override
    UnreachableReport unreachableReport() {
        return UnreachableReport.FAILED_NOTIFY;
    }
}
