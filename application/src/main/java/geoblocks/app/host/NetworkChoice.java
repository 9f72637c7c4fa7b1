package geoblocks.app.host;

import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.RttProbe;
import geoblocks.ledbat.wire.LedbatCodec;
import geoblocks.net.NetAddress;
import geoblocks.network.CodecRegistry;
import geoblocks.network.NetworkSettings;
import geoblocks.network.component.GeoNetwork;

/**
 * Which component provides the Network port of a host ({@code geoblocks.network.implementation}):
 * our {@link GeoNetwork} or Kompics' NettyNetwork, and what ours needs (settings, the cluster
 * secret, the message families with the same ids as the Kompics serializers: file 100, RTT 101,
 * LEDBAT 110).
 */
public record NetworkChoice(NetworkSettings settings, String secret) {

    public boolean kompics() {
        return settings.implementation().equals("kompics-netty");
    }

    /** The name printed by commands: "geoblocks (epoll, tls)" or "kompics-netty". */
    public String describe(NetAddress self) {
        return kompics() ? "kompics-netty" : "geoblocks (" + GeoNetwork.transportFor(settings) + ", "
                + (settings.tls(self.getIp().isLoopbackAddress()) ? "tls" : "auth") + ")";
    }

    public GeoNetwork.GeoNetworkInit init(NetAddress self) {
        return new GeoNetwork.GeoNetworkInit(self, settings, secret, codecs());
    }

    public static CodecRegistry codecs() {
        return new CodecRegistry()
                .register(100, FileCodec.INSTANCE)
                .register(101, RttProbe.CODEC)
                .register(LedbatCodec.SERIALIZER_ID, LedbatCodec.INSTANCE);
    }
}
