package geoblocks.blockstore.component;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.port.AdminOpsPort;
import geoblocks.blockstore.port.BenchOpsPort;
import geoblocks.blockstore.port.ClientOpsPort;
import geoblocks.blockstore.port.Forbidden;
import geoblocks.blockstore.port.LayoutPort;
import geoblocks.blockstore.port.PeerOpsPort;
import geoblocks.blockstore.port.PeerServicePort;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.PeerVersions;
import java.util.Objects;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.Transport;

/**
 * Where file messages enter a node (glue; the rules are in {@link Doors}): each message the network delivers
 * goes to its family's door ({@link OpFamily}), which authorizes a request there and forwards what it admits on
 * that family's port; the peer requests the peer service handles ({@link RequestRoutes#PEER_SERVICE}) go on the
 * peer service's port instead. A refused request is answered from here with the {@link Failed} it has always got and
 * reaches no handler; one refused because its sender is no admin client (an admin operation, or a name reserved
 * to admins) is announced as {@link Forbidden} on the admin port. It starts with the stored layout and follows
 * the members on {@link LayoutPort}.
 */
public final class FileIngress extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<LayoutPort> layout = requires(LayoutPort.class);
    private final Negative<ClientOpsPort> client = provides(ClientOpsPort.class);
    private final Negative<PeerOpsPort> peer = provides(PeerOpsPort.class);
    private final Negative<PeerServicePort> peerService = provides(PeerServicePort.class);
    private final Negative<AdminOpsPort> admin = provides(AdminOpsPort.class);
    private final Negative<BenchOpsPort> bench = provides(BenchOpsPort.class);

    private final Doors doors;
    private final NetAddress self;
    private final PeerVersions versions;

    public FileIngress(FileIngressInit init) {
        this.doors = new Doors(init.admin, init.region, init.self, init.layout, System.nanoTime());
        this.self = init.self;
        this.versions = init.versions;
        handle(net, FileMsg.class, this::onMsg);
        handle(layout, LayoutPort.LayoutChanged.class, c -> doors.layout(c.layout(), System.nanoTime()));
    }

    private void onMsg(FileMsg msg) {
        NetAddress from = msg.getHeader().source();
        FileOp op = msg.op();
        Failed refused = doors.refusal(from, msg.key(), op, System.nanoTime());
        if (refused != null) {
            trigger(FileMsg.to(versions, new NetHeader(self, from, Transport.TCP), refused), net);
            if (Doors.forbidden(refused)) {
                trigger(new Forbidden(from, op.getClass().getSimpleName()), admin); // the admin gate refused it
            }
            return;
        }
        switch (OpFamily.of(op)) {
            case CLIENT -> trigger(new ClientOpsPort.Arrived(from, op), client);
            case PEER -> {
                if (RequestRoutes.toPeerService(op)) {
                    trigger(new PeerServicePort.Arrived(from, op), peerService);
                } else {
                    trigger(new PeerOpsPort.Arrived(from, op), peer);
                }
            }
            case ADMIN -> trigger(new AdminOpsPort.Arrived(from, op), admin);
            case BENCH -> trigger(new BenchOpsPort.Arrived(from, op), bench);
        }
    }

    /**
     * Who the node is, who its admin clients are, what each peer speaks (for the refusals' encoding), and the
     * layout it starts with (the stored one).
     */
    public static final class FileIngressInit extends Init<FileIngress> {
        final String region;
        final NetAddress self;
        final AdminGate admin;
        final PeerVersions versions;
        final Layout layout;

        public FileIngressInit(String region, NetAddress self, AdminGate admin, PeerVersions versions, Layout layout) {
            this.region = region;
            this.self = self;
            this.admin = admin;
            this.versions = versions;
            this.layout = Objects.requireNonNull(layout, "layout");
        }
    }
}
