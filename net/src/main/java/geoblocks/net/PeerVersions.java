package geoblocks.net;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The version of each protocol a node speaks with each peer, shared by the network (which learns it
 * in each connection's handshake) and the components that make messages (which pick the version to
 * write). Thread-safe. A peer no handshake has told about yet (before the first connection completes,
 * or over a network without one, such as the simulator's) gets the lowest version this end speaks:
 * every peer within range reads it. What a handshake agreed holds until the peer's last connection
 * closes ({@link #forget}); a later handshake (after a restart, an upgrade or a rollback) agrees anew.
 */
public final class PeerVersions {
    private final Map<NetAddress, int[]> agreed = new ConcurrentHashMap<>();

    /**
     * The versions {@code peer}'s latest handshake agreed: protocol id (0..255) to version, -1 where none.
     * True when they differ from what its previous handshake agreed (a first handshake, an upgrade or a rollback).
     */
    public boolean agreed(NetAddress peer, int[] byProtocol) {
        if (byProtocol.length != 256) {
            throw new IllegalArgumentException("one entry per protocol id 0..255, got " + byProtocol.length);
        }
        int[] before = agreed.put(peer, byProtocol.clone());
        return before == null || !java.util.Arrays.equals(before, byProtocol);
    }

    /**
     * {@code peer}'s last connection closed: it may restart as another build (an upgrade, a rollback), so
     * its messages go at the lowest version until its next handshake agrees again.
     */
    public void forget(NetAddress peer) {
        agreed.remove(peer);
    }

    /** The version of protocol {@code id} each peer's latest handshake agreed (peers that agreed none left out). */
    public Map<NetAddress, Integer> byPeer(int id) {
        Map<NetAddress, Integer> out = new java.util.TreeMap<>(java.util.Comparator.comparing(NetAddress::toString));
        agreed.forEach((peer, v) -> {
            if (v[id] >= 0) {
                out.put(peer, v[id]);
            }
        });
        return out;
    }

    /** The version to write protocol {@code id}'s messages to {@code peer} at, when this end speaks {@code ours}. */
    public int versionFor(NetAddress peer, int id, VersionRange ours) {
        int[] v = agreed.get(peer);
        return v != null && v[id] >= 0 && ours.contains(v[id]) ? v[id] : ours.min();
    }

    /** The version agreed with {@code peer} for protocol {@code id}, or -1 when no handshake agreed one. */
    public int agreedWith(NetAddress peer, int id) {
        int[] v = agreed.get(peer);
        return v == null ? -1 : v[id];
    }
}
