package geoblocks.ledbat.component;

import geoblocks.ledbat.core.BaseDelayHistory;
import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.ledbat.core.PathMtuSearch;
import geoblocks.ledbat.core.SenderFlow;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.ledbat.wire.LedbatCodec;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.Wire;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import se.sics.kompics.network.Transport;

/**
 * What {@link LedbatComponent} keeps per peer it sends to, across flows: the path's base-delay
 * history (shared by the flows, as the path's), the path MTU search (null when off) and the segment
 * payload it allows, the active flow if any, totals of the finished flows, and the last flow's final
 * delays. Forgotten once idle for the base-delay history's length.
 */
final class PeerPath {
    final NetAddress peer;
    final BaseDelayHistory base;
    /** The path MTU search, in UDP payload bytes; null with path-mtu-search = false. */
    final PathMtuSearch mtu;
    /** UDP payload bytes of a DATA datagram to the peer beyond its payload (header, codec, sealing). */
    private final int dataOverhead;
    private final int mss;
    int nextProbeId;
    OutFlow active;
    long idleSinceMicros;
    private long resent;
    private long timeouts;
    private long sent;
    private long acked;
    private long lastQueuingDelay = -1;
    private long lastSrtt = -1;

    PeerPath(NetAddress self, NetAddress peer, LedbatSettings settings) {
        this.peer = peer;
        this.base = new BaseDelayHistory(settings.baseHistoryMinutes);
        this.mss = settings.mss;
        this.dataOverhead = LedbatCodec.dataSize(new NetHeader(self, peer, Transport.UDP), 0) + Wire.DATAGRAM_OVERHEAD;
        // the largest datagram is today's: a DATA packet with a full MSS (1,471 bytes of UDP payload on IPv4)
        this.mtu = settings.pathMtuSearch ? new PathMtuSearch(dataOverhead + mss) : null;
    }

    /** The payload of the data segments to the peer: the configured MSS, within the confirmed path MTU. */
    int payload() {
        return mtu == null ? mss : Math.max(1, Math.min(mss, mtu.confirmed() - dataOverhead));
    }

    /** Segments with more payload than this are larger than the path MTU search's base size. */
    int basePayload() {
        return mtu == null ? Integer.MAX_VALUE : mtu.base() - dataOverhead;
    }

    /** The path MTU in use, in UDP payload bytes (the largest datagram's when not searched). */
    int pathMtu() {
        return mtu == null ? dataOverhead + mss : mtu.confirmed();
    }

    /** The active flow ended (finished or failed): keep its totals and final delays. */
    void ended(SenderFlow f, long now) {
        resent += f.window().resentPackets();
        timeouts += f.timeouts();
        sent += f.window().sentBytes();
        acked += f.window().ackedBytes();
        lastQueuingDelay = f.controller().queuingDelay();
        lastSrtt = f.controller().rto().srtt();
        active = null;
        idleSinceMicros = now;
    }

    PeerStats.Peer stats() {
        long b = base.base();
        long baseDelay = b == Long.MAX_VALUE ? Long.MIN_VALUE : b;   // none yet
        if (active == null) {
            return new PeerStats.Peer(peer, false, 0, 0, 0, 0, lastQueuingDelay, baseDelay, lastSrtt, resent, timeouts,
                    sent, acked, pathMtu());
        }
        SenderFlow f = active.core;
        var w = f.window();
        var c = f.controller();
        return new PeerStats.Peer(peer, true, f.streams().size(), c.cwndBytes(), w.queuedBytes(), w.flightBytes(),
                c.queuingDelay(), baseDelay, c.rto().srtt(), resent + w.resentPackets(), timeouts + f.timeouts(),
                sent + w.sentBytes(), acked + w.ackedBytes(), pathMtu());
    }

    /**
     * The figures of every path in {@code paths}, after removing those idle for longer than {@code forgetMicros}
     * (their base-delay history has expired too).
     */
    static List<PeerStats.Peer> statsForgettingIdle(Collection<PeerPath> paths, long nowMicros, long forgetMicros) {
        List<PeerStats.Peer> peers = new ArrayList<>(paths.size());
        for (Iterator<PeerPath> it = paths.iterator(); it.hasNext();) {
            PeerPath p = it.next();
            if (p.active == null && nowMicros - p.idleSinceMicros > forgetMicros) {
                it.remove();
                continue;
            }
            peers.add(p.stats());
        }
        return peers;
    }
}
