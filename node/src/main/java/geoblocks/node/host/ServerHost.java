package geoblocks.node.host;

import com.google.common.collect.ImmutableSet;
import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.component.MemberKeys;
import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.port.OpsPort;
import geoblocks.net.Bytes;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import geoblocks.network.PooledBytes;
import geoblocks.network.component.GeoNetwork;
import geoblocks.network.component.LocalLinks;
import geoblocks.network.session.KeyResolver;
import geoblocks.node.BuildVersion;
import geoblocks.node.admin.AdminTokens;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.auth.AccessKeys;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Handler;
import se.sics.kompics.Init;
import se.sics.kompics.network.ListeningStatus;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.network.Transport;
import se.sics.kompics.network.netty.NettyInit;
import se.sics.kompics.network.netty.NettyNetwork;
import se.sics.kompics.timer.Timer;
import se.sics.kompics.timer.java.JavaTimer;

/**
 * Production host of one node: the network (ours or Kompics' NettyNetwork, TCP and UDP) and JavaTimer under the node
 * parent; with an S3 gateway, also a client component of the node on a second network endpoint of the same runtime
 * (on our network the two reach each other through {@link LocalLinks}, without sockets).
 */
public final class ServerHost extends ComponentDefinition {

    public ServerHost(ServerInit init) {
        Component timer = create(JavaTimer.class, Init.NONE);
        // the node and its gateway's client reach each other in-process, without sockets (ours only)
        LocalLinks local = new LocalLinks();
        // the file protocol version each network's handshakes agree with each peer, for the components that write to it
        PeerVersions nodeVersions = init.versions;
        PeerVersions gatewayVersions = new PeerVersions();
        Component netty = init.net.kompics()
                ? create(NettyNetwork.class, new NettyInit(init.self, 0, ImmutableSet.of(Transport.TCP, Transport.UDP)))
                : create(GeoNetwork.class, init.net.init(init.self, nodeVersions).withLocalLinks(local)
                        .withKeys(init.clientKeys)); // clients by access key: their keys looked up in the node's store
        Component node = create(NodeParent.class, init.node.withLedbatBursts(!init.net.kompics())
                .withSendBuffers(client -> init.net.kompics() || client.equals(init.gatewaySelf) ? Bytes.Allocator.HEAP
                        : PooledBytes.ALLOCATOR) // the S3 gateway's client, in this process, takes the arrays
                // admin operations only from that client: the admin HTTP API, with its tokens, reaches the node through it
                .withAdminClients(client -> client.equals(init.gatewaySelf))
                // and the names where it keeps admin token records and sealed access keys: no other client touches them
                .withAdminNames(List.of(AdminTokens.RESERVED, AccessKeys.PREFIX))
                // and no client by access key reaches a name the gateway keeps (its objects too): S3 only through S3
                .withGatewayNames(S3Names.GATEWAY)
                // the node keys the layout names reach the handshakes of this node's network
                .withMemberKeys(init.net.kompics() || init.keys == null ? MemberKeys.NONE
                        : init.keys)
                .withVersions(nodeVersions)
                .withRelease(init.net.release(), BuildVersion.build()
                        + (init.net.previousRelease() ? " as release 0.2" : "")));
        connect(node.getNegative(Network.class), netty.getPositive(Network.class), Channel.TWO_WAY);
        connect(node.getNegative(Timer.class), timer.getPositive(Timer.class), Channel.TWO_WAY);
        connect(node.getNegative(NetworkControl.class), netty.getPositive(NetworkControl.class), Channel.TWO_WAY);
        if (init.gateway != null) {
            // the S3 gateway's client of this node: its own network endpoint in this runtime, talking to the node
            Component gwNet = init.net.kompics()
                    ? create(NettyNetwork.class, new NettyInit(init.gatewaySelf, 0, ImmutableSet.of(Transport.TCP)))
                    : create(GeoNetwork.class, init.net.init(init.gatewaySelf, gatewayVersions).withLocalLinks(local));
            Component client = create(ClientComponent.class, new ClientComponent.ClientInit(init.gatewaySelf, init.self,
                    "own node", init.gatewaySettings, init.gatewayTimeoutMs).withVersions(gatewayVersions));
            Component bridge = create(Bridge.class, new Bridge.BridgeInit(init.gateway));
            connect(client.getNegative(Network.class), gwNet.getPositive(Network.class), Channel.TWO_WAY);
            connect(client.getNegative(Timer.class), timer.getPositive(Timer.class), Channel.TWO_WAY);
            connect(client.getNegative(NetworkControl.class), gwNet.getPositive(NetworkControl.class), Channel.TWO_WAY);
            connect(bridge.getNegative(ClientPort.class), client.getPositive(ClientPort.class), Channel.TWO_WAY);
        }
        subscribe(new Handler<NodeSnapshot>() {
            @Override
            public void handle(NodeSnapshot s) {
                init.snapshots.accept(s);
            }
        }, node.getPositive(OpsPort.class));
        subscribe(new Handler<ListeningStatus>() {
            @Override
            public void handle(ListeningStatus s) {
                init.listening.complete(s);
            }
        }, netty.getPositive(NetworkControl.class));
    }

    public static final class ServerInit extends Init<ServerHost> {
        final NetAddress self;
        final NodeParent.NodeInit node;
        final CompletableFuture<ListeningStatus> listening;
        final NetworkChoice net;
        /** Gets each snapshot the node publishes, on the host's thread (for the HTTP server: read from other threads). */
        final Consumer<NodeSnapshot> snapshots;
        /** The file protocol version the node's network agrees with each peer (for its metrics too). */
        final PeerVersions versions = new PeerVersions();

        public PeerVersions versions() {
            return versions;
        }

        /** This node's keys (the layout's keys reach its network through them); null: none are followed. */
        NodeKeys keys;

        /** This init with the node's keys {@code k} (made over {@code net}'s identity). */
        public ServerInit withNodeKeys(NodeKeys k) {
            this.keys = k;
            return this;
        }

        /** Where the node's network looks up the access keys clients present (NONE: it takes no client by key). */
        KeyResolver clientKeys = KeyResolver.NONE;

        /** This init taking file-protocol clients by the access keys {@code keys} finds. */
        public ServerInit withClientKeys(KeyResolver keys) {
            this.clientKeys = keys;
            return this;
        }

        /** When set: host a client of this node for the S3 gateway at {@code gatewaySelf}; its Bridge lands here. */
        CompletableFuture<Bridge> gateway;
        NetAddress gatewaySelf;
        long gatewayTimeoutMs;
        NodeSettings gatewaySettings;

        /** Also hosts a client component of this node, reachable through the Bridge {@code bridge} completes with. */
        public ServerInit withGatewayClient(NetAddress self, NodeSettings settings, long timeoutMs,
                CompletableFuture<Bridge> bridge) {
            this.gatewaySelf = self;
            this.gatewaySettings = settings;
            this.gatewayTimeoutMs = timeoutMs;
            this.gateway = bridge;
            return this;
        }

        public ServerInit(NetAddress self, NodeParent.NodeInit node, CompletableFuture<ListeningStatus> listening,
                NetworkChoice net) {
            this(self, node, listening, net, s -> { });
        }

        public ServerInit(NetAddress self, NodeParent.NodeInit node, CompletableFuture<ListeningStatus> listening,
                NetworkChoice net, Consumer<NodeSnapshot> snapshots) {
            this.snapshots = snapshots;
            this.self = self;
            this.net = net;
            this.node = node;
            this.listening = listening;
        }
    }
}
