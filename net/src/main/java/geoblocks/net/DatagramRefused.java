package geoblocks.net;

/**
 * The network's report, delivered up its Network port, that the local stack refused to send a UDP
 * datagram because it is too big for the path as this host knows it (EMSGSIZE: larger than the
 * interface's MTU, and the socket does not fragment). Its header is the refused datagram's own (from
 * this node to the peer); {@code datagramBytes} is the datagram's UDP payload. Only delivered, never
 * sent: like {@link NetBurst} it has no codec. The datagram is lost; a sender that searches the
 * path's MTU (LEDBAT) takes it as the size failing at once.
 */
public final class DatagramRefused extends NetMsg {
    private final int datagramBytes;

    public DatagramRefused(NetHeader header, int datagramBytes) {
        super(header);
        if (datagramBytes <= 0) {
            throw new IllegalArgumentException("a refused datagram has a positive size, was " + datagramBytes);
        }
        this.datagramBytes = datagramBytes;
    }

    /** The peer the datagram was for. */
    public NetAddress peer() {
        return getHeader().destination();
    }

    /** UDP payload bytes of the refused datagram. */
    public int datagramBytes() {
        return datagramBytes;
    }

    @Override
    public int wireSize() {
        return 0;
    }

    @Override
    public String toString() {
        return "DatagramRefused(" + getHeader().destination() + ", " + datagramBytes + " B)";
    }
}
