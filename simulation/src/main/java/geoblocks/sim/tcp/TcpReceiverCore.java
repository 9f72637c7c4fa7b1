package geoblocks.sim.tcp;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The receiving half of a TCP flow, without I/O: reassembles byte ranges, delivers in order and
 * returns the cumulative ACK number for every segment (no delayed ACKs, so duplicate ACKs signal
 * holes at once). Invariant: {@code rcvNxt} is the first byte not yet received in order; the
 * out-of-order map holds disjoint ranges all above it.
 */
final class TcpReceiverCore {
    private long rcvNxt;
    private final TreeMap<Long, Long> outOfOrder = new TreeMap<>(); // start -> end (exclusive)
    private long duplicates;

    /** Accepts bytes [seq, seq + len) and returns the cumulative ACK. */
    long onSegment(long seq, int len) {
        if (seq < 0 || len <= 0) {
            throw new IllegalArgumentException("segment must have seq >= 0 and len > 0, was " + seq + "+" + len);
        }
        long end = seq + len;
        if (end <= rcvNxt) {
            duplicates++;
            return rcvNxt;
        }
        if (seq <= rcvNxt) {
            rcvNxt = end;
            Map.Entry<Long, Long> e;
            while ((e = outOfOrder.firstEntry()) != null && e.getKey() <= rcvNxt) {
                rcvNxt = Math.max(rcvNxt, e.getValue());
                outOfOrder.pollFirstEntry();
            }
        } else {
            Long prevEnd = outOfOrder.get(seq);
            if (prevEnd == null || prevEnd < end) {
                outOfOrder.put(seq, end);
            } else {
                duplicates++;
            }
        }
        return rcvNxt;
    }

    /**
     * Up to three SACK blocks as {start, end} pairs (RFC 2018): first the block holding the segment
     * that starts at {@code lastSeq} (when it is out of order), then the highest other blocks.
     */
    long[] sackBlocks(long lastSeq) {
        if (outOfOrder.isEmpty()) {
            return NO_SACK;
        }
        long[] b = new long[6];
        int n = 0;
        Map.Entry<Long, Long> first = outOfOrder.floorEntry(lastSeq);
        if (first != null && first.getValue() > lastSeq) {
            b[n++] = first.getKey();
            b[n++] = first.getValue();
        } else {
            first = null;
        }
        for (Map.Entry<Long, Long> e : outOfOrder.descendingMap().entrySet()) {
            if (n == 6) {
                break;
            }
            if (first == null || !e.getKey().equals(first.getKey())) {
                b[n++] = e.getKey();
                b[n++] = e.getValue();
            }
        }
        return n == 6 ? b : Arrays.copyOf(b, n);
    }

    private static final long[] NO_SACK = new long[0];

    /** Bytes delivered in order so far. */
    long delivered() {
        return rcvNxt;
    }

    long duplicates() {
        return duplicates;
    }

    int outOfOrderRanges() {
        return outOfOrder.size();
    }
}
