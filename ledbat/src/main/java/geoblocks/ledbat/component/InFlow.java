package geoblocks.ledbat.component;

import geoblocks.ledbat.core.ReceiverFlow;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import se.sics.kompics.network.Transport;

/** A receiving flow from one peer inside {@link LedbatComponent}: the pure core plus addressing. */
final class InFlow {
    final NetAddress peer;
    final NetHeader replyHeader;
    final ReceiverFlow core;

    InFlow(NetAddress self, NetAddress peer, ReceiverFlow core) {
        this.peer = peer;
        this.replyHeader = new NetHeader(self, peer, Transport.UDP);
        this.core = core;
    }

    /** Key of a receiving flow: the sender's address and its flow id. */
    record Key(NetAddress peer, int flowId) {}
}
