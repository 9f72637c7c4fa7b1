package geoblocks.sim.tcp;

import java.util.Map;
import java.util.TreeMap;

/**
 * The sender's SACK scoreboard (RFC 2018, RFC 6675): disjoint, merged byte ranges above the
 * cumulative ACK that the receiver reported holding. Invariant: ranges do not overlap or touch and
 * all start above the last cumulative ACK passed to {@link #ackedUpTo}.
 */
final class Scoreboard {
    private final TreeMap<Long, Long> ranges = new TreeMap<>(); // start -> end (exclusive)

    void add(long start, long end) {
        if (end <= start) {
            return;
        }
        Map.Entry<Long, Long> before = ranges.floorEntry(start);
        if (before != null && before.getValue() >= start) {
            start = before.getKey();
            end = Math.max(end, before.getValue());
            ranges.remove(before.getKey());
        }
        Map.Entry<Long, Long> next;
        while ((next = ranges.ceilingEntry(start)) != null && next.getKey() <= end) {
            end = Math.max(end, next.getValue());
            ranges.remove(next.getKey());
        }
        ranges.put(start, end);
    }

    /** Forgets everything below the cumulative ACK. */
    void ackedUpTo(long ack) {
        Map.Entry<Long, Long> e;
        while ((e = ranges.firstEntry()) != null && e.getKey() < ack) {
            ranges.pollFirstEntry();
            if (e.getValue() > ack) {
                ranges.put(ack, e.getValue());
                break;
            }
        }
    }

    /** Highest SACKed byte + 1, or {@code floor} when nothing is SACKed. */
    long highest(long floor) {
        return ranges.isEmpty() ? floor : Math.max(floor, ranges.lastEntry().getValue());
    }

    /** SACKed bytes within [from, to). */
    long sackedIn(long from, long to) {
        if (from >= to) {
            return 0;
        }
        long n = 0;
        for (Map.Entry<Long, Long> e : ranges.subMap(ranges.floorKey(from) == null ? from : ranges.floorKey(from), true,
                to, false).entrySet()) {
            n += Math.max(0, Math.min(e.getValue(), to) - Math.max(e.getKey(), from));
        }
        return n;
    }

    /** End of the SACKed range containing {@code seq}, or -1 when it is not SACKed. */
    long sackedEnd(long seq) {
        Map.Entry<Long, Long> e = ranges.floorEntry(seq);
        return e != null && e.getValue() > seq ? e.getValue() : -1;
    }

    /** Start of the first SACKed range above {@code seq}, or Long.MAX_VALUE. */
    long nextSackedStart(long seq) {
        Long k = ranges.higherKey(seq);
        return k == null ? Long.MAX_VALUE : k;
    }

    void clear() {
        ranges.clear();
    }

    boolean isEmpty() {
        return ranges.isEmpty();
    }
}
