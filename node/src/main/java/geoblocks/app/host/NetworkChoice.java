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
 * LEDBAT 110; LEDBAT's datagrams are received in bursts, see CodecRegistry#registerBursting).
 */
public record NetworkChoice(NetworkSettings settings, String secret) {

    /** The network of a loaded configuration, with its cluster secret. */
    public static NetworkChoice of(geoblocks.app.AppConfig config) {
        return new NetworkChoice(config.network(), config.secret());
    }

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

    /** Message family ids, the same on both networks (Kompics' serializer ids, see Runtime). */
    public static final int FILE_CODEC_ID = 100;
    public static final int RTT_CODEC_ID = 101;

    public static CodecRegistry codecs() {
        return new CodecRegistry()
                .register(FILE_CODEC_ID, FileCodec.INSTANCE)
                .register(RTT_CODEC_ID, RttProbe.CODEC)
                .registerBursting(LedbatCodec.SERIALIZER_ID, LedbatCodec.INSTANCE); // LedbatComponent handles NetBurst
    }
}
