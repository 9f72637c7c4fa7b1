package geoblocks.net;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Why a network reports a peer it could not reach: no connection to {@code peer} could be made (refused,
 * unreachable, timed out connecting, or its handshake failed), so the TCP messages queued for it were
 * dropped, never sent: none of them reached the peer. The network delivers it as the cause of a Kompics
 * {@code NetworkException}; a component that sent a request among {@link #unsent()} knows the request
 * did not happen (other requests to that peer may have: they went on an earlier connection).
 *
 * <p>The unsent messages' payload bytes are already released: read their headers and identifying fields
 * only.
 */
public final class PeerUnreachable extends IOException {
    private final transient NetAddress peer;
    private final transient List<NetMsg> unsent;

    public PeerUnreachable(String why, NetAddress peer, List<? extends NetMsg> unsent) {
        super(why, null);
        this.peer = Objects.requireNonNull(peer, "peer");
        this.unsent = List.copyOf(unsent);
    }

    /** The peer no connection could be made to. */
    public NetAddress peer() {
        return peer;
    }

    /** The messages that were queued for the peer and dropped: never sent. */
    public List<NetMsg> unsent() {
        return unsent;
    }
}
