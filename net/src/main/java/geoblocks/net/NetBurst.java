package geoblocks.net;

import java.util.List;
import java.util.Objects;

/**
 * Several datagrams to one destination handed to the network as one Kompics event (a LEDBAT
 * sender's window opening, say), so the network can seal and send them as one batch (GSO or
 * sendmmsg) instead of paying one event per datagram. A transport envelope, not a message family:
 * it has no codec, and only a network that unpacks it may receive it (geoblocks' GeoNetwork does;
 * Kompics' NettyNetwork and the simulator do not, so senders emit bursts only when told to).
 * GeoNetwork also delivers bursts: datagrams of a family registered as bursting that one read of
 * its socket received from one peer, to receivers that handle NetBurst (LEDBAT's component).
 * Immutable; every part has this burst's destination and transport.
 */
public final class NetBurst extends NetMsg {
    private final List<NetMsg> parts;

    public NetBurst(NetHeader header, List<? extends NetMsg> parts) {
        super(header);
        this.parts = List.copyOf(parts);
        if (this.parts.isEmpty()) {
            throw new IllegalArgumentException("a burst needs at least one part");
        }
        for (NetMsg p : this.parts) {
            if (!Objects.equals(p.getHeader().destination(), header.destination())
                    || p.getHeader().protocol() != header.protocol()) {
                throw new IllegalArgumentException("burst part " + p + " does not go to " + header);
            }
        }
    }

    public List<NetMsg> parts() {
        return parts;
    }

    @Override
    public int wireSize() {
        int n = 0;
        for (NetMsg p : parts) {
            n += p.wireSize();
        }
        return n;
    }

    @Override
    public String toString() {
        return "NetBurst(" + getHeader() + ", " + parts.size() + " parts)";
    }
}
