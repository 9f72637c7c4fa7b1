package geoblocks.net;

import java.util.Objects;
import se.sics.kompics.network.Header;
import se.sics.kompics.network.Transport;

/** Source, destination and transport of a geoblocks message. Immutable. */
public record NetHeader(NetAddress source, NetAddress destination, Transport protocol)
        implements Header<NetAddress> {

    public NetHeader {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(protocol, "protocol");
    }

    /** The header of a reply: source and destination swapped, same transport. */
    public NetHeader reply() {
        return new NetHeader(destination, source, protocol);
    }

    @Override
    public NetAddress getSource() {
        return source;
    }

    @Override
    public NetAddress getDestination() {
        return destination;
    }

    @Override
    public Transport getProtocol() {
        return protocol;
    }

    @Override
    public String toString() {
        return source + "->" + destination + "/" + protocol;
    }
}
