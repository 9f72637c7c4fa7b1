package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the latest RTT row heard from each peer (see {@link RttRow}) and when it came, and answers
 * the cluster's {@link MeasuredRttMatrix}: this node's own row from its {@link RttTable}, each peer's row
 * from what that peer sent. A peer's row is fresh while it is younger than {@code staleAfterNanos}
 * and the peer is up; otherwise its figures are reported as stale, never as live ones. Rows from
 * unknown senders, and entries for unknown regions or the sender itself, are ignored. Time is
 * passed in.
 */
public final class RttMatrixView {
    private final String self;
    private final List<String> regions;
    private final long staleAfterNanos;
    private final Map<String, Heard> heard = new HashMap<>();

    private record Heard(RttRow row, long atNanos) {}

    /** {@code regions}: every region of the cluster, this node's included, in the order to list them. */
    public RttMatrixView(String self, List<String> regions, long staleAfterNanos) {
        if (!regions.contains(self)) {
            throw new IllegalArgumentException("regions " + regions + " must include this node's, " + self);
        }
        if (staleAfterNanos <= 0) {
            throw new IllegalArgumentException("stale-after must be > 0, was " + staleAfterNanos + " ns");
        }
        this.self = self;
        this.regions = List.copyOf(regions);
        this.staleAfterNanos = staleAfterNanos;
    }

    /** Peer {@code from} sent {@code row} at {@code nowNanos}; false when ignored (not a peer). */
    public boolean onRow(String from, RttRow row, long nowNanos) {
        if (from.equals(self) || !regions.contains(from)) {
            return false;
        }
        heard.put(from, new Heard(row, nowNanos));
        return true;
    }

    /** The matrix at {@code nowNanos}, with {@code own} as this node's row and its view of who is up. */
    public MeasuredRttMatrix matrix(RttTable own, long nowNanos) {
        List<MeasuredRttMatrix.Link> links = new ArrayList<>();
        for (String to : regions) {
            if (!to.equals(self)) {
                links.add(new MeasuredRttMatrix.Link(self, to, own.rttMs(to).orElse(Double.NaN), !own.isUp(to), true, 0));
            }
        }
        for (String from : regions) {
            Heard h = heard.get(from);
            if (from.equals(self) || h == null) {
                continue;
            }
            long age = nowNanos - h.atNanos;
            boolean fresh = own.isUp(from) && age <= staleAfterNanos;
            for (String to : regions) {
                Long us = h.row.rttMicros().get(to);
                if (us != null && !to.equals(from)) {
                    boolean down = us == RttRow.DOWN;
                    links.add(new MeasuredRttMatrix.Link(from, to, down ? Double.NaN : us / 1000.0, down, fresh,
                            Math.max(0, age) / 1_000_000));
                }
            }
        }
        return new MeasuredRttMatrix(regions, links);
    }
}
