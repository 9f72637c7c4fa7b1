package geoblocks.blockstore.component;

import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.wire.ClientOp.StatusReq;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.net.NetAddress;
import geoblocks.net.NetMsg;
import geoblocks.net.PeerUnreachable;
import se.sics.kompics.network.ConnectionStatus;
import se.sics.kompics.network.NetworkException;

/**
 * What the file service does when a peer fails or comes back (glue): the requests waiting for a peer
 * whose connection dropped, which the network could not reach, or which stopped answering RTT probes fail
 * at once instead of at their timeouts; a peer that came up gets a connection warm-up.
 */
final class PeerFailures {
    /** Request id of connection warm-ups; real ids start at 1. */
    static final long WARM_UP = 0;

    private final NodeContext node;

    PeerFailures(NodeContext node) {
        this.node = node;
    }

    /** The network's last connection to a peer dropped: what waits for that peer fails. */
    void dropped(ConnectionStatus.Dropped d) {
        if (d.last && d.peer != null) {
            NetAddress peer = new NetAddress(d.peer.getIp(), d.peer.getPort());
            node.pending().failPeer(peer, "connection to " + peer + " dropped");
        }
    }

    /** The network could not reach a peer. */
    void unreachable(NetworkException e) {
        if (e.peer == null) {
            return;
        }
        NetAddress peer = new NetAddress(e.peer.getIp(), e.peer.getPort());
        if (e.getCause() instanceof PeerUnreachable u) {
            // the requests it dropped never left: they did not happen. The others to that peer went on a
            // connection whose loss fails them (ConnectionStatus.Dropped), or are still on their way to the
            // network: the next connect names them unsent, or a new connection carries them
            for (NetMsg m : u.unsent()) {
                if (m instanceof FileMsg f) {
                    node.pending().failUnsent(f.op().req(), peer, "cannot reach " + peer + ": " + e.message);
                }
            }
        } else {
            node.pending().failPeer(peer, "cannot reach " + peer + ": " + e.message);
        }
    }

    /** A new RTT table: stop waiting for peers that went down, open connections to peers that came up. */
    void rtt(RttTable table) {
        RttTable before = node.rtt();
        for (String peer : table.down()) {
            if (before.isUp(peer)) { // just went down: stop waiting for it
                node.pending().failPeer(node.addressOf(peer), peer + " stopped answering RTT probes");
            }
        }
        for (String peer : table.upRttMs().keySet()) {
            if (!before.isUp(peer)) {
                // Just came up (or restarted): open the TCP connection now with a throwaway
                // request. When two nodes connect to each other at once, Kompics' Netty keeps
                // one channel and drops messages already written to the other ("Duplicate TCP
                // channel"); this makes that race happen on this message, not on replica data.
                node.send(node.addressOf(peer), new StatusReq(WARM_UP));
            }
        }
        node.setRtt(table);
    }
}
