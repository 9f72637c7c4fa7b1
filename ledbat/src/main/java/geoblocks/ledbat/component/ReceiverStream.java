package geoblocks.ledbat.component;

import geoblocks.ledbat.core.ReceiveWindow;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import se.sics.kompics.network.Transport;

/** State of one receiving stream inside {@link LedbatComponent}. */
final class ReceiverStream {
    final NetAddress peer;
    final int id;
    final NetHeader replyHeader;
    final ReceiveWindow window;
    final byte[] sackScratch = new byte[ReceiveWindow.MAX_SACK_BYTES];
    int unacked;
    long lastHeard;
    long deliveredOffset;

    ReceiverStream(NetAddress self, NetAddress peer, int id, int capacity, long now) {
        this.peer = peer;
        this.id = id;
        this.replyHeader = new NetHeader(self, peer, Transport.UDP);
        this.window = new ReceiveWindow(capacity);
        this.lastHeard = now;
    }

    /** Key of a receiving stream: the sender's address and its stream id. */
    record Key(NetAddress peer, int id) {}
}
