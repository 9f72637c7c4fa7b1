package geoblocks.blockstore.component;

import geoblocks.blockstore.core.layout.ClusterUpgrade;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.wire.ClientOp.MemberBuild;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What each member of a layout runs, as far as this node knows: its own release, and what each connected
 * peer's handshake said ({@link PeerVersions}). The membership raises the cluster version with it
 * ({@code cluster finalize}); the file service reports it in status. {@code addressOf} gives a member's
 * address, or null when it has none that resolves.
 */
record MemberReleases(String self, ClusterVersion release, PeerVersions peers) {
    /** What member {@code region}'s latest handshake said it runs, or null (not connected, or no address). */
    private PeerVersions.Release releaseOf(String region, Function<String, NetAddress> addressOf) {
        NetAddress a = addressOf.apply(region);
        return a == null ? null : peers.releaseOf(a);
    }

    /** The release line each member of {@code l} runs: this node's own, and each connected peer's. */
    Map<String, ClusterVersion> running(Layout l, Function<String, NetAddress> addressOf) {
        Map<String, ClusterVersion> out = new TreeMap<>();
        for (String m : l.members()) {
            if (m.equals(self)) {
                out.put(m, release);
                continue;
            }
            PeerVersions.Release r = releaseOf(m, addressOf);
            if (r != null) {
                out.put(m, r.line());
            }
        }
        return out;
    }

    /**
     * What each member runs, for status: the build its handshake named ("0.2.x" when none) and the file protocol
     * version agreed with it (-1 for this node itself); members not connected now are left out. {@code ownBuild}:
     * this node's.
     */
    List<MemberBuild> builds(Layout l, String ownBuild, Function<String, NetAddress> addressOf) {
        List<MemberBuild> out = new ArrayList<>();
        for (String m : l.members()) {
            if (m.equals(self)) {
                out.add(new MemberBuild(m, ownBuild, -1)); // -1: itself, no peer
                continue;
            }
            PeerVersions.Release r = releaseOf(m, addressOf);
            if (r != null) {
                out.add(new MemberBuild(m, r.describe(), peers.agreedWith(addressOf.apply(m), FileCodec.CODEC_ID)));
            }
        }
        return out;
    }

    /** Whether {@code cluster finalize} could raise the cluster version of {@code l} now (see ClusterUpgrade#note). */
    String finalizeNote(Layout l, Function<String, NetAddress> addressOf) {
        return ClusterUpgrade.note(l, release, running(l, addressOf));
    }
}
