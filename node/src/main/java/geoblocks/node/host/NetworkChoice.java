package geoblocks.node.host;

import com.typesafe.config.Config;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.RttProbe;
import geoblocks.ledbat.wire.LedbatCodec;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import geoblocks.network.CodecRegistry;
import geoblocks.network.NetworkSettings;
import geoblocks.network.component.GeoNetwork;
import geoblocks.network.session.NodeIdentity;
import geoblocks.node.AppConfig;
import geoblocks.node.BuildVersion;
import geoblocks.node.http.Redact;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which component provides the Network port of a host ({@code geoblocks.network.implementation}):
 * our {@link GeoNetwork} or Kompics' NettyNetwork, and what ours needs (settings, the cluster
 * secret, the message families with the same ids as the Kompics serializers: file 100, RTT 101,
 * LEDBAT 110; LEDBAT's datagrams are received in bursts, see CodecRegistry#registerBursting), and
 * the cluster's node keys ({@code geoblocks.cluster.regions[].key}, see NodeIdentity) with this
 * process's own key when it is a node whose key the config names.
 */
public record NetworkChoice(NetworkSettings settings, String secret, NodeIdentity identity, InetAddress bind,
        boolean previousRelease, ClientAccess access) {
    /** Listening on the address it is known at. */
    public NetworkChoice(NetworkSettings settings, String secret, NodeIdentity identity) {
        this(settings, secret, identity, null, false);
    }

    /** Proving the cluster secret (a node, or a client without an access key). */
    public NetworkChoice(NetworkSettings settings, String secret, NodeIdentity identity, InetAddress bind,
            boolean previousRelease) {
        this(settings, secret, identity, bind, previousRelease, null);
    }

    /**
     * The key that makes a process speak only the versions the previous release knows
     * ({@code geoblocks.network.previous-release = true}): an upgrade test's stand-in for the old build
     * until a release with version ranges exists to run instead (see docs/upgrading.md).
     */
    public static final String PREVIOUS_RELEASE = "geoblocks.network.previous-release";

    /** The release line a process of this choice runs as: this build's, or 0.2 when it plays the previous release. */
    public ClusterVersion release() {
        return previousRelease ? ClusterVersion.V0_2 : ClusterVersion.BUILD;
    }

    /** This choice speaking only what the previous release knows (see {@link #PREVIOUS_RELEASE}). */
    public NetworkChoice asPreviousRelease(boolean previous) {
        return new NetworkChoice(settings, secret, identity, bind, previous, access);
    }

    /**
     * The same, listening on {@code address} (TCP, UDP and the HTTP port) while peers and clients know the node by
     * the address of its region entry: {@code geoblocks.cluster.regions[].bind} (0.0.0.0, or the private address
     * a NAT forwards the advertised one to).
     */
    public NetworkChoice listeningOn(InetAddress address) {
        return new NetworkChoice(settings, secret, identity, address, previousRelease, access);
    }

    /** The network of a loaded configuration, with its cluster secret and the member keys it names (a client's view). */
    public static NetworkChoice of(AppConfig config) {
        Config c = config.config();
        return new NetworkChoice(config.network(), config.secret(), identity(c))
                .asPreviousRelease(c.hasPath(PREVIOUS_RELEASE) && c.getBoolean(PREVIOUS_RELEASE));
    }

    /**
     * The network of a client of a loaded configuration: by the access key {@code env} or the config names
     * ({@link ClientAccess}), which then stands in for the cluster secret the client need not hold; else as
     * {@link #of}.
     */
    public static NetworkChoice ofClient(AppConfig config, Map<String, String> env) {
        ClientAccess access = ClientAccess.from(config.config(), env);
        if (access == null) {
            return of(config);
        }
        Config c = config.config();
        NetworkChoice n = new NetworkChoice(config.network(), access.secret(), identity(c), null,
                c.hasPath(PREVIOUS_RELEASE) && c.getBoolean(PREVIOUS_RELEASE), access);
        if (n.kompics() || n.previousRelease) {
            throw new IllegalArgumentException("a client by access key needs geoblocks.network.implementation = geoblocks"
                    + " (this release's handshake); kompics-netty and the previous release know only the cluster secret");
        }
        return n;
    }

    /** The member keys {@code root} names, and whether it names one for every region. */
    private static NodeIdentity identity(Config root) {
        Map<NetAddress, PublicKey> keys = memberKeys(root);
        return new NodeIdentity(null, keys, keys.size() == root.getConfigList("geoblocks.cluster.regions").size());
    }

    /**
     * The member keys a config names: {@code key = "ed25519:..."} in a region's entry, by the region's
     * address; regions without one have none (their connections are checked by the cluster secret only).
     */
    public static Map<NetAddress, PublicKey> memberKeys(Config root) {
        Map<NetAddress, PublicKey> keys = new LinkedHashMap<>();
        for (Config r : root.getConfigList("geoblocks.cluster.regions")) {
            if (r.hasPath("key")) {
                try {
                    keys.put(NetAddress.parse(r.getString("address")), NodeIdentity.parse(r.getString("key")));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("geoblocks.cluster.regions: region '" + r.getString("id") + "': "
                            + e.getMessage());
                }
            }
        }
        return keys;
    }

    /** The same, signing its handshakes with {@code ownKey} (a node whose key the config names). */
    public NetworkChoice signingWith(PrivateKey ownKey) {
        return new NetworkChoice(settings, secret, identity.withOwn(ownKey), bind, previousRelease, access);
    }

    /** Without the cluster secret. */
    @Override
    public String toString() {
        return "NetworkChoice[settings=" + settings + ", secret=" + Redact.secret(secret)
                + (access == null ? "" : ", access key " + access.id()) + "]";
    }

    public boolean kompics() {
        return settings.implementation().equals("kompics-netty");
    }

    /** The name printed by commands: "geoblocks (epoll, tls)" or "kompics-netty". */
    public String describe(NetAddress self) {
        return kompics() ? "kompics-netty" : "geoblocks (" + GeoNetwork.transportFor(settings) + ", "
                + (settings.tls(self.getIp().isLoopbackAddress()) ? "tls" : "auth") + ")";
    }

    /** Our network at {@code self}, for components that write no versioned family (LEDBAT's host). */
    public GeoNetwork.GeoNetworkInit init(NetAddress self) {
        return init(self, new PeerVersions());
    }

    /**
     * Our network at {@code self}, writing the versions its handshakes agree with each peer into
     * {@code versions}, which the components writing its messages share.
     */
    public GeoNetwork.GeoNetworkInit init(NetAddress self, PeerVersions versions) {
        CodecRegistry codecs = codecs();
        if (previousRelease) {
            codecs.speakAtMost(FILE_CODEC_ID, FileCodec.RANGE.max() - 1);
            codecs.speakAtMost(RTT_CODEC_ID, RttProbe.VERSIONS.min()); // 0.2.x has only version 1, and offers none
        }
        GeoNetwork.GeoNetworkInit init = new GeoNetwork.GeoNetworkInit(self, settings, secret, codecs).withIdentity(identity)
                .withVersions(versions)
                // the previous release's HELLO (layout 2) names no release: its peers take it for 0.2
                .withRelease(previousRelease ? null : ClusterVersion.BUILD, BuildVersion.build());
        if (access != null) {
            init.withAccessKey(access.id(), access.secret().getBytes(StandardCharsets.UTF_8));
        }
        return bind == null ? init : init.withBind(bind);
    }

    /** Message family ids, the same on both networks (Kompics' serializer ids, see KompicsSetup). */
    public static final int FILE_CODEC_ID = FileCodec.CODEC_ID;
    public static final int RTT_CODEC_ID = RttProbe.CODEC_ID;

    public static CodecRegistry codecs() {
        return new CodecRegistry()
                .register(FILE_CODEC_ID, FileCodec.INSTANCE)
                .register(RTT_CODEC_ID, RttProbe.CODEC)
                .registerBursting(LedbatCodec.SERIALIZER_ID, LedbatCodec.INSTANCE); // LedbatComponent handles NetBurst
    }
}
