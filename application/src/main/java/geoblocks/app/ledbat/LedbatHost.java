package geoblocks.app.ledbat;

import com.google.common.collect.ImmutableSet;
import geoblocks.ledbat.component.LedbatComponent;
import geoblocks.ledbat.component.LedbatInit;
import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.net.NetAddress;
import geoblocks.network.component.GeoNetwork;
import geoblocks.node.host.NetworkChoice;
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
 * Production root of the LEDBAT test application: a network (ours, or NettyNetwork with UDP only) and JavaTimer under a
 * {@link LedbatComponent}, and a driver (server or client) on the LEDBAT port. Enlarges the UDP
 * socket buffers once Netty is bound.
 */
public final class LedbatHost extends ComponentDefinition {

    @SuppressWarnings({"unchecked", "rawtypes"})
    public LedbatHost(HostInit init) {
        Component timer = create(JavaTimer.class, Init.NONE);
        Component net = init.net.kompics()
                ? create(NettyNetwork.class, new NettyInit(init.self, 0, ImmutableSet.of(Transport.UDP)))
                : create(GeoNetwork.class, init.net.init(init.self));
        Component ledbat = create(LedbatComponent.class, new LedbatInit(init.self, init.settings, !init.net.kompics()));
        connect(ledbat.getNegative(Network.class), net.getPositive(Network.class), Channel.TWO_WAY);
        connect(ledbat.getNegative(Timer.class), timer.getPositive(Timer.class), Channel.TWO_WAY);
        Component driver = create((Class) init.driver, (Init) init.driverInit);
        connect(driver.getNegative(LedbatPort.class), ledbat.getPositive(LedbatPort.class), Channel.TWO_WAY);
        if (init.driverNeedsTimer) {
            connect(driver.getNegative(Timer.class), timer.getPositive(Timer.class), Channel.TWO_WAY);
        }
        handle(net.getPositive(NetworkControl.class), ListeningStatus.class, s -> {
            String r = init.net.kompics() ? UdpBuffers.apply(net, init.udpBufferBytes)
                    : "network " + init.net.describe(init.self) + " (socket buffers from geoblocks.network.udp-buffer)";
            if (init.verbose) {
                System.err.println("ledbat: " + init.self + " UDP " + r);
            }
        });
    }

    /** Address, settings, socket buffer size and the driver component to run. */
    public static final class HostInit extends Init<LedbatHost> {
        final NetAddress self;
        final LedbatSettings settings;
        final int udpBufferBytes;
        final Class<? extends ComponentDefinition> driver;
        final Init<?> driverInit;
        final boolean driverNeedsTimer;
        final boolean verbose;
        final NetworkChoice net;

        HostInit(NetAddress self, LedbatSettings settings, int udpBufferBytes,
                Class<? extends ComponentDefinition> driver, Init<?> driverInit, boolean driverNeedsTimer,
                boolean verbose, NetworkChoice net) {
            this.net = net;
            this.self = self;
            this.settings = settings;
            this.udpBufferBytes = udpBufferBytes;
            this.driver = driver;
            this.driverInit = driverInit;
            this.driverNeedsTimer = driverNeedsTimer;
            this.verbose = verbose;
        }
    }
}
