package geoblocks.net;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
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
    private final Map<NetAddress, Release> releases = new ConcurrentHashMap<>();
    private volatile ClusterVersion required = ClusterVersion.V0_2;

    /**
     * What a peer's HELLO said it runs: its release line ({@link ClusterVersion#V0_2} for a HELLO of layout 2,
     * which names none) and its build ("0.3.0 (commit 1a2b3c4d5e6f)"; empty when it named none).
     */
    public record Release(ClusterVersion line, String build) {
        public Release {
            Objects.requireNonNull(line, "line");
            build = build == null ? "" : build;
        }

        /** "0.3.0 (commit 1a2b3c4d5e6f)", or "0.2.x" for a peer that named no build. */
        public String describe() {
            return build.isEmpty() ? line + ".x" : build;
        }
    }

    /** {@code peer}'s latest handshake told what it runs. */
    public void released(NetAddress peer, Release release) {
        releases.put(peer, release);
    }

    /** What {@code peer}'s latest handshake said it runs, or null (no handshake since its last connection closed). */
    public Release releaseOf(NetAddress peer) {
        return releases.get(peer);
    }

    /** What each peer connected now said it runs. */
    public Map<NetAddress, Release> releases() {
        Map<NetAddress, Release> out = new TreeMap<>(Comparator.comparing(NetAddress::toString));
        out.putAll(releases);
        return out;
    }

    /**
     * Refuse, from now on, handshakes with a peer whose release line is below {@code version}: the cluster's
     * version rose to it, and what it switched on is more than an older build can read. Never lowers.
     */
    public void require(ClusterVersion version) {
        synchronized (this) {
            if (version.compareTo(required) > 0) {
                required = version;
            }
        }
    }

    /** The lowest release line a peer may run to complete a handshake (0.2 until the cluster's version rose). */
    public ClusterVersion required() {
        return required;
    }

    /**
     * The versions {@code peer}'s latest handshake agreed: protocol id (0..255) to version, -1 where none.
     * True when they differ from what its previous handshake agreed (a first handshake, an upgrade or a rollback).
     */
    public boolean agreed(NetAddress peer, int[] byProtocol) {
        if (byProtocol.length != 256) {
            throw new IllegalArgumentException("one entry per protocol id 0..255, got " + byProtocol.length);
        }
        int[] before = agreed.put(peer, byProtocol.clone());
        return before == null || !Arrays.equals(before, byProtocol);
    }

    /**
     * {@code peer}'s last connection closed: it may restart as another build (an upgrade, a rollback), so
     * its messages go at the lowest version until its next handshake agrees again.
     */
    public void forget(NetAddress peer) {
        agreed.remove(peer);
        releases.remove(peer);
    }

    /** The version of protocol {@code id} each peer's latest handshake agreed (peers that agreed none left out). */
    public Map<NetAddress, Integer> byPeer(int id) {
        Map<NetAddress, Integer> out = new TreeMap<>(Comparator.comparing(NetAddress::toString));
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
