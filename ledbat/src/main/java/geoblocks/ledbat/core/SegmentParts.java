package geoblocks.ledbat.core;

import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The receiver's joiner of segments that arrive in parts, pure: a sender whose path MTU went down
 * after it cut a segment sends that segment again in parts that fit (DATA packets with the PART flag,
 * {@link geoblocks.ledbat.wire.LedbatCodec}), and the segment counts as received only when every byte
 * of it arrived. Parts may overlap (two retransmissions cut at different sizes); a part that
 * disagrees with the earlier ones on the segment's length or stream starts the segment over. At most
 * {@link #MAX_SEGMENTS} segments wait; a new one beyond that evicts the oldest (its sender resends
 * it). Invariant: every waiting segment has at least one byte missing.
 */
public final class SegmentParts {
    /** Most segments joined at once. */
    public static final int MAX_SEGMENTS = 1024;

    private static final class Joining {
        final int stream;
        final byte[] data;
        final BitSet have;
        boolean fin;

        Joining(int stream, int length) {
            this.stream = stream;
            this.data = new byte[length];
            this.have = new BitSet(length);
        }
    }

    private final LinkedHashMap<Long, Joining> joining = new LinkedHashMap<>();

    /**
     * Adds {@code payload}, the bytes from {@code partOffset} of segment {@code seq} ({@code segmentLength}
     * bytes of stream {@code stream}); returns the whole segment's payload once every byte arrived (and
     * forgets it), else null.
     */
    public byte[] add(long seq, int stream, int partOffset, int segmentLength, byte[] payload, boolean fin) {
        if (partOffset < 0 || partOffset + payload.length > segmentLength) {
            throw new IllegalArgumentException("part " + partOffset + "+" + payload.length + " outside a segment of "
                    + segmentLength + " bytes");
        }
        Joining j = joining.get(seq);
        if (j == null || j.data.length != segmentLength || j.stream != stream) {
            if (j == null && joining.size() >= MAX_SEGMENTS) {
                Iterator<Map.Entry<Long, Joining>> oldest = joining.entrySet().iterator();
                oldest.next();
                oldest.remove();
            }
            j = new Joining(stream, segmentLength);
            joining.put(seq, j);
        }
        System.arraycopy(payload, 0, j.data, partOffset, payload.length);
        j.have.set(partOffset, partOffset + payload.length);
        j.fin |= fin;
        if (j.have.cardinality() < segmentLength) {
            return null;
        }
        joining.remove(seq);
        return j.data;
    }

    /** Forgets the segments below {@code next} (delivered whole meanwhile). */
    public void forgetBelow(long next) {
        if (!joining.isEmpty()) {
            joining.keySet().removeIf(seq -> seq < next);
        }
    }

    /** Segments waiting for parts. */
    public int waiting() {
        return joining.size();
    }
}
