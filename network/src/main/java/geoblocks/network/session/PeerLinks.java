package geoblocks.network.session;

import geoblocks.net.NetAddress;
import geoblocks.network.frame.Control;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One TCP connection per peer pair, decided deterministically, without losing or reordering a
 * message (pure: connections are opaque handles {@code C}, I/O goes through {@link Io}).
 *
 * <p>When both ends dial each other at once, two authenticated connections exist. Both ends keep
 * the one dialled by the smaller address (ip bytes, then port) and retire the other: the retiring
 * side sends RETIRE as its last frame on it, the peer answers RETIRE_ACK once every frame before
 * the RETIRE was delivered, and the connection closes when both directions have retired. A side
 * that had written messages on the retired connection holds new messages until the RETIRE_ACK
 * arrives, so per-peer FIFO order survives the switch. Messages sent while no connection is ready
 * wait in a per-peer queue; a connect that fails drops them and reports the failure once.
 *
 * <p>Thread-safe: every method locks the instance (sends come from the Kompics thread, connection
 * events from Netty's event loops).
 */
public final class PeerLinks<C, M> {

    /** The I/O a link decision needs. Called with the lock held: implementations only enqueue. */
    public interface Io<C, M> {
        void connect(NetAddress peer);

        void send(C conn, M msg);

        void sendControl(C conn, Control c);

        void close(C conn);

        /** The connect to {@code peer} failed; the {@code dropped} queued messages are gone. */
        void failed(NetAddress peer, String why, List<M> dropped);

        /** The last connection to {@code peer} closed. */
        void dropped(NetAddress peer);
    }

    private final NetAddress self;
    private final Io<C, M> io;
    private final Map<NetAddress, Link<C, M>> links = new HashMap<>();
    private final Map<C, Session> sessions = new HashMap<>();

    private static final class Link<C, M> {
        C active;
        C holdUntilAck;
        boolean dialling;
        final ArrayDeque<M> queue = new ArrayDeque<>();
    }

    private static final class Session {
        final NetAddress peer;
        boolean carriedData;
        boolean retireSent;
        boolean retireReceived;
        boolean ackReceived;

        Session(NetAddress peer) {
            this.peer = peer;
        }
    }

    public PeerLinks(NetAddress self, Io<C, M> io) {
        this.self = self;
        this.io = io;
    }

    /** Sends now on the peer's connection, or queues and dials. */
    public synchronized void send(NetAddress peer, M msg) {
        Link<C, M> l = links.computeIfAbsent(peer, p -> new Link<>());
        if (l.active != null && l.holdUntilAck == null && l.queue.isEmpty()) {
            sessions.get(l.active).carriedData = true;
            io.send(l.active, msg);
            return;
        }
        l.queue.add(msg);
        dialIfIdle(peer, l);
    }

    /** Dials {@code peer} unless a connection to it exists or is being set up (for datagrams). */
    public synchronized void dial(NetAddress peer) {
        dialIfIdle(peer, links.computeIfAbsent(peer, p -> new Link<>()));
    }

    private void dialIfIdle(NetAddress peer, Link<C, M> l) {
        if (l.active == null && !l.dialling && !hasLiveSession(peer)) {
            l.dialling = true;
            io.connect(peer);
        }
    }

    /** A connection finished its handshake with {@code peer}. */
    public synchronized void established(C conn, NetAddress peer, boolean dialledBySelf) {
        Link<C, M> l = links.computeIfAbsent(peer, p -> new Link<>());
        if (dialledBySelf) {
            l.dialling = false;
        }
        Session s = new Session(peer);
        sessions.put(conn, s);
        C other = liveSessionOtherThan(peer, conn);
        if (other == null) {
            l.active = conn;
        } else {
            boolean keepNew = dialledBySelf == (compare(self, peer) < 0);
            C loser = keepNew ? other : conn;
            C winner = keepNew ? conn : other;
            retire(loser, l);
            l.active = winner;
        }
        drain(l);
    }

    /** The peer sent RETIRE on {@code conn}: acknowledge, and retire it on our side too. */
    public synchronized void onRetire(C conn) {
        Session s = sessions.get(conn);
        if (s == null) {
            return;
        }
        Link<C, M> l = links.get(s.peer);
        s.retireReceived = true;
        io.sendControl(conn, new Control.RetireAck());
        retire(conn, l);
        maybeClose(conn, s);
    }

    /** The peer acknowledged our RETIRE on {@code conn}. */
    public synchronized void onRetireAck(C conn) {
        Session s = sessions.get(conn);
        if (s == null) {
            return;
        }
        s.ackReceived = true;
        Link<C, M> l = links.get(s.peer);
        if (conn.equals(l.holdUntilAck)) {
            l.holdUntilAck = null;
            drain(l);
        }
        maybeClose(conn, s);
    }

    /**
     * A connection closed (or failed before its handshake completed: then {@code dialledPeer} is
     * the peer it was dialling, else null).
     */
    public synchronized void closed(C conn, NetAddress dialledPeer, String why) {
        Session s = sessions.remove(conn);
        if (s == null) {
            if (dialledPeer != null) {
                Link<C, M> l = links.get(dialledPeer);
                if (l != null && l.dialling) {
                    l.dialling = false;
                    if (l.active == null && !hasLiveSession(dialledPeer)) {
                        List<M> dropped = new ArrayList<>(l.queue);
                        l.queue.clear();
                        io.failed(dialledPeer, why, dropped);
                    }
                }
            }
            return;
        }
        Link<C, M> l = links.get(s.peer);
        if (conn.equals(l.holdUntilAck)) {
            l.holdUntilAck = null;
        }
        if (conn.equals(l.active)) {
            l.active = liveSessionOtherThan(s.peer, conn);
        }
        if (!hasAnySession(s.peer)) {
            io.dropped(s.peer);
            if (!l.queue.isEmpty() && !l.dialling) {
                l.dialling = true;
                io.connect(s.peer);
            }
        } else {
            drain(l);
        }
    }

    /** The peer's connection messages go to now, or null. */
    public synchronized C activeFor(NetAddress peer) {
        Link<C, M> l = links.get(peer);
        return l == null ? null : l.active;
    }

    /** The peer of an established connection, or null. */
    public synchronized NetAddress peerOf(C conn) {
        Session s = sessions.get(conn);
        return s == null ? null : s.peer;
    }

    /** Established connections (retiring ones included). */
    public synchronized List<C> connections() {
        return new ArrayList<>(sessions.keySet());
    }

    private void retire(C conn, Link<C, M> l) {
        Session s = sessions.get(conn);
        if (s.retireSent) {
            return;
        }
        s.retireSent = true;
        io.sendControl(conn, new Control.Retire());
        if (s.carriedData && !s.ackReceived) {
            l.holdUntilAck = conn;
        }
        if (conn.equals(l.active)) {
            l.active = liveSessionOtherThan(s.peer, conn);
        }
        maybeClose(conn, s);
    }

    private void maybeClose(C conn, Session s) {
        if (s.retireSent && s.retireReceived && s.ackReceived) {
            sessions.remove(conn);
            io.close(conn);
        }
    }

    private void drain(Link<C, M> l) {
        if (l.active == null || l.holdUntilAck != null) {
            return;
        }
        Session s = sessions.get(l.active);
        while (!l.queue.isEmpty()) {
            s.carriedData = true;
            io.send(l.active, l.queue.poll());
        }
    }

    private boolean hasLiveSession(NetAddress peer) {
        return liveSessionOtherThan(peer, null) != null;
    }

    private boolean hasAnySession(NetAddress peer) {
        for (Session s : sessions.values()) {
            if (s.peer.equals(peer)) {
                return true;
            }
        }
        return false;
    }

    private C liveSessionOtherThan(NetAddress peer, C not) {
        for (Map.Entry<C, Session> e : sessions.entrySet()) {
            if (!e.getKey().equals(not) && e.getValue().peer.equals(peer) && !e.getValue().retireSent) {
                return e.getKey();
            }
        }
        return null;
    }

    /** Orders addresses by ip bytes (unsigned), then port. */
    static int compare(NetAddress a, NetAddress b) {
        int c = Arrays.compareUnsigned(a.getIp().getAddress(), b.getIp().getAddress());
        return c != 0 ? c : Integer.compare(a.getPort(), b.getPort());
    }
}
