package geoblocks.ledbat.component;

import geoblocks.ledbat.core.ReceiverFlow;
import geoblocks.ledbat.wire.AckPacket;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import java.util.Arrays;
import se.sics.kompics.network.Transport;

/** A receiving flow from one peer inside {@link LedbatComponent}: the pure core plus addressing. */
final class InFlow {
    private static final byte[] NO_SACK = new byte[0];

    final NetAddress peer;
    final NetHeader replyHeader;
    final ReceiverFlow core;

    InFlow(NetAddress self, NetAddress peer, ReceiverFlow core) {
        this.peer = peer;
        this.replyHeader = new NetHeader(self, peer, Transport.UDP);
        this.core = core;
    }

    /**
     * The acknowledgement of what the flow holds now: its next expected sequence number, its counters and its
     * SACK bitmap (written into {@code scratch}, then copied at its length), echoing {@code echoMicros}.
     */
    AckPacket ack(long echoMicros, long nowMicros, byte[] scratch) {
        int sackLen = core.writeSack(scratch);
        byte[] sack = sackLen == 0 ? NO_SACK : Arrays.copyOf(scratch, sackLen);
        return new AckPacket(replyHeader, core.id(), core.next(), echoMicros, nowMicros - echoMicros,
                (int) core.duplicates(), (int) core.outOfOrder(), sack);
    }

    /** Key of a receiving flow: the sender's address and its flow id. */
    record Key(NetAddress peer, int flowId) {}
}
