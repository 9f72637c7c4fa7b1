package geoblocks.node.host;

import com.google.common.collect.ImmutableSet;
import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.ClusterConfig;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import geoblocks.net.WanEmulator;
import geoblocks.network.component.GeoNetwork;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Handler;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.ListeningStatus;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.network.Transport;
import se.sics.kompics.network.netty.NettyInit;
import se.sics.kompics.network.netty.NettyNetwork;
import se.sics.kompics.timer.Timer;
import se.sics.kompics.timer.java.JavaTimer;

/**
 * Production host of a client: one network (ours or Kompics' NettyNetwork) and JavaTimer, and per region of the cluster a
 * client component talking to that region's node, each with its own {@link Bridge}. A client placed
 * in a region of a cluster with the emulated WAN on talks through its own {@link WanEmulator}, so its
 * messages to and from the other regions' nodes cross the emulated WAN as the nodes' do.
 */
public final class ClientHost extends ComponentDefinition {

    public ClientHost(ClientHostInit init) {
        Component timer = create(JavaTimer.class, Init.NONE);
        PeerVersions versions = new PeerVersions(); // what our handshakes agree, per node
        Component netty = init.net.kompics()
                ? create(NettyNetwork.class, new NettyInit(init.self, 0, ImmutableSet.of(Transport.TCP, Transport.UDP)))
                : create(GeoNetwork.class, init.net.init(init.self, versions));
        Positive<Network> path = wan(init, netty.getPositive(Network.class), timer.getPositive(Timer.class));
        init.cluster.regions().forEach((region, address) -> {
            Component client = create(ClientComponent.class,
                    new ClientComponent.ClientInit(init.self, address, region, init.settings, init.timeoutMs)
                            .withVersions(versions));
            Component bridge = create(Bridge.class, new Bridge.BridgeInit(init.bridges.get(region)));
            connect(client.getNegative(Network.class), path, Channel.TWO_WAY);
            connect(client.getNegative(Timer.class), timer.getPositive(Timer.class), Channel.TWO_WAY);
            connect(client.getNegative(NetworkControl.class), netty.getPositive(NetworkControl.class), Channel.TWO_WAY);
            connect(bridge.getNegative(ClientPort.class), client.getPositive(ClientPort.class), Channel.TWO_WAY);
        });
        subscribe(new Handler<ListeningStatus>() {
            @Override
            public void handle(ListeningStatus s) {
                init.listening.complete(s);
            }
        }, netty.getPositive(NetworkControl.class));
    }

    /** {@code net} as the client's components see it: through a client-side emulated WAN when the client is placed. */
    private Positive<Network> wan(ClientHostInit init, Positive<Network> net, Positive<Timer> timer) {
        if (init.region == null || !init.cluster.emulateWan()) {
            return net;
        }
        Component wan = create(WanEmulator.class, WanEmulator.WanInit.client(init.cluster, init.region));
        connect(wan.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(wan.getNegative(Timer.class), timer, Channel.TWO_WAY);
        return wan.getPositive(Network.class);
    }

    public static final class ClientHostInit extends Init<ClientHost> {
        final NetAddress self;
        final ClusterConfig cluster;
        final NodeSettings settings;
        final long timeoutMs;
        final Map<String, CompletableFuture<Bridge>> bridges;
        final CompletableFuture<ListeningStatus> listening;
        final NetworkChoice net;
        /** The region the client is placed in on the emulated WAN; null: none (no emulation on its side). */
        final String region;

        public ClientHostInit(NetAddress self, ClusterConfig cluster, NodeSettings settings, long timeoutMs,
                Map<String, CompletableFuture<Bridge>> bridges, CompletableFuture<ListeningStatus> listening,
                NetworkChoice net) {
            this(self, cluster, settings, timeoutMs, bridges, listening, net, null);
        }

        public ClientHostInit(NetAddress self, ClusterConfig cluster, NodeSettings settings, long timeoutMs,
                Map<String, CompletableFuture<Bridge>> bridges, CompletableFuture<ListeningStatus> listening,
                NetworkChoice net, String region) {
            if (region != null) {
                cluster.address(region);
            }
            this.region = region;
            this.self = self;
            this.net = net;
            this.cluster = cluster;
            this.settings = settings;
            this.timeoutMs = timeoutMs;
            this.bridges = bridges;
            this.listening = listening;
        }
    }
}
