package geoblocks.ledbat.component;

import com.google.common.collect.ImmutableSet;
import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.net.NetAddress;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
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
 * Two LEDBAT nodes on 127.0.0.1 in one JVM, each with its own NettyNetwork (UDP) and a shared
 * JavaTimer; optionally a {@link LossyShim} under the sender's LEDBAT (and one that only reorders
 * under the receiver's); a sending and a receiving
 * {@link Endpoint}.
 */
public final class LoopbackHost extends ComponentDefinition {

    public LoopbackHost(HostInit init) {
        Component timer = create(JavaTimer.class, Init.NONE);
        Component netA = create(NettyNetwork.class, new NettyInit(init.a, 0, ImmutableSet.of(Transport.UDP)));
        Component netB = create(NettyNetwork.class, new NettyInit(init.b, 0, ImmutableSet.of(Transport.UDP)));
        // with the shim (which unpacks bursts) the sender hands its packets down in NetBursts
        Component ledA = create(LedbatComponent.class, new LedbatInit(init.a, init.settings, init.shim != null));
        Component ledB = create(LedbatComponent.class, new LedbatInit(init.b, init.settings));
        if (init.shim != null) {
            Component shim = create(LossyShim.class, init.shim);
            connect(shim.getNegative(Network.class), netA.getPositive(Network.class), Channel.TWO_WAY);
            connect(ledA.getNegative(Network.class), shim.getPositive(Network.class), Channel.TWO_WAY);
        } else {
            connect(ledA.getNegative(Network.class), netA.getPositive(Network.class), Channel.TWO_WAY);
        }
        if (init.shim != null) {
            // under the receiver a shim that only reorders: the data packets it holds back reach
            // the receiver in NetBursts with the next one
            Component shimB = create(LossyShim.class, new LossyShim.ShimInit(init.shim.seed + 1, 0, 0, 0.05));
            connect(shimB.getNegative(Network.class), netB.getPositive(Network.class), Channel.TWO_WAY);
            connect(ledB.getNegative(Network.class), shimB.getPositive(Network.class), Channel.TWO_WAY);
        } else {
            connect(ledB.getNegative(Network.class), netB.getPositive(Network.class), Channel.TWO_WAY);
        }
        connect(ledA.getNegative(Timer.class), timer.getPositive(Timer.class), Channel.TWO_WAY);
        connect(ledB.getNegative(Timer.class), timer.getPositive(Timer.class), Channel.TWO_WAY);
        Component sender = create(Endpoint.class, new Endpoint.EndpointInit(init.b, init.streams, init.bytes, init.result));
        Component receiver = create(Endpoint.class, new Endpoint.EndpointInit(null, 0, 0, init.result));
        connect(sender.getNegative(LedbatPort.class), ledA.getPositive(LedbatPort.class), Channel.TWO_WAY);
        connect(receiver.getNegative(LedbatPort.class), ledB.getPositive(LedbatPort.class), Channel.TWO_WAY);
        for (Component n : new Component[] {netA, netB}) {
            handle(n.getPositive(NetworkControl.class), ListeningStatus.class,
                    s -> System.err.println("UDP buffers: " + UdpBuffers.apply(n, init.udpBuffer)));
        }
    }

    /** Addresses, settings, optional shim, and the transfer to run. */
    public static final class HostInit extends Init<LoopbackHost> {
        final NetAddress a;
        final NetAddress b;
        final LedbatSettings settings;
        final LossyShim.ShimInit shim;
        final int streams;
        final long bytes;
        final TransferResult result;
        int udpBuffer = 4 << 20;

        HostInit(NetAddress a, NetAddress b, LedbatSettings settings, LossyShim.ShimInit shim, int streams,
                long bytes, TransferResult result) {
            this.a = a;
            this.b = b;
            this.settings = settings;
            this.shim = shim;
            this.streams = streams;
            this.bytes = bytes;
            this.result = result;
        }
    }
}
