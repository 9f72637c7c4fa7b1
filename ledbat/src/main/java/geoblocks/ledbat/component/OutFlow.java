package geoblocks.ledbat.component;

import geoblocks.ledbat.core.SenderFlow;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import se.sics.kompics.network.Transport;

/** The sending flow to one peer inside {@link LedbatComponent}: the pure core plus addressing. */
final class OutFlow {
    final NetAddress peer;
    final NetHeader header;
    final SenderFlow core;
    final PeerPath path;
    /** The window's large-segment counters as last fed to the path MTU search. */
    long seenLargeLost;
    long seenLargeAcked;

    OutFlow(NetAddress self, NetAddress peer, SenderFlow core, PeerPath path) {
        this.peer = peer;
        this.header = new NetHeader(self, peer, Transport.UDP);
        this.core = core;
        this.path = path;
        core.window().mss(path.payload());
        core.window().largeAbove(path.basePayload());
    }
}
