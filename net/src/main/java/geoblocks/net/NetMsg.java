package geoblocks.net;

import java.util.Objects;
import se.sics.kompics.network.Msg;
import se.sics.kompics.network.Transport;

/**
 * Base of every geoblocks network message: a header plus a family-specific body. Each family
 * (file protocol, RTT probes, LEDBAT packets, ...) has one subclass and one {@link WireCodec}.
 * Messages are immutable: Kompics delivers one instance to every subscriber.
 */
public abstract class NetMsg implements Msg<NetAddress, NetHeader> {
    private final NetHeader header;

    protected NetMsg(NetHeader header) {
        this.header = Objects.requireNonNull(header, "header");
    }

    @Override
    public final NetHeader getHeader() {
        return header;
    }

    /**
     * True for control messages (RTT probes, manifest publication, claims, acknowledgements): the
     * network sends them before the bulk messages (blocks) it has queued to the same peer, so they
     * may overtake those. Only a message whose meaning does not depend on arriving after the bulk
     * messages sent before it may say true; control messages keep their order among themselves.
     */
    public boolean isControl() {
        return false;
    }

    /**
     * True for a datagram that must travel in a datagram of its own, never in a batch with others (a
     * path MTU probe: the stack may refuse its size, and a refused GSO batch is refused whole).
     */
    public boolean alone() {
        return false;
    }

    /**
     * This message as the network writes it at {@code nanoTime} ({@link System#nanoTime} on the thread that
     * encodes the datagram, just before it is sealed and handed to the socket, after every queue): a message
     * that carries its own send time (an RTT ping) returns a copy carrying this one, of the same encoded size
     * (its size was taken when it was queued); others return themselves. Called for datagrams only, once.
     */
    public NetMsg stampSent(long nanoTime) {
        return this;
    }

    /**
     * This message as the network read it off the socket at {@code nanoTime} ({@link System#nanoTime} on the
     * thread that read the datagram, before it was opened, decoded or queued for its receiver): a message that
     * wants its arrival time (an RTT probe) returns a copy that remembers it; others return themselves. Called
     * for datagrams only, once, before the message is delivered.
     */
    public NetMsg stampReceived(long nanoTime) {
        return this;
    }

    /**
     * The version of its family's format this message is written at (read at, when received), or -1
     * for a family without versions ({@link WireCodec#versions}).
     */
    public int wireVersion() {
        return -1;
    }

    /**
     * Whether a client authenticated by an access key may send this family at all (the file protocol: its doors
     * decide by the key); the network drops any other message a keyed connection sends.
     */
    public boolean servesKeys() {
        return false;
    }

    /**
     * This message as received on a connection authenticated by access key {@code key}: a copy that carries it
     * ({@link #key}), for a family that {@link #servesKeys serves keys}.
     */
    public NetMsg fromKey(AccessKey key) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " is not sent by keyed clients");
    }

    /**
     * The access key whose connection this message arrived on, or null: a connection authenticated by the cluster
     * secret (or a node's key), or this process.
     */
    public AccessKey key() {
        return null;
    }

    /** Bytes this message occupies on the wire (body plus header); the simulator's links use it. */
    public abstract int wireSize();

    @Override
    @Deprecated
    public NetAddress getSource() {
        return header.source();
    }

    @Override
    @Deprecated
    public NetAddress getDestination() {
        return header.destination();
    }

    @Override
    @Deprecated
    public Transport getProtocol() {
        return header.protocol();
    }
}
