package geoblocks.ledbat.core;

/**
 * The path MTU of the way to one peer, found by Datagram Packetization Layer PMTU Discovery (RFC 8899,
 * DPLPMTUD), pure: every call receives the time in nanoseconds. Sizes are UDP payload bytes (what the
 * socket sends; the IP and UDP headers come on top).
 *
 * <p>The search starts at a size every path is assumed to take ({@link #BASE}, 1,200 bytes: QUIC's
 * smallest datagram, RFC 9000 section 14, and RFC 8899 section 5.1.2's BASE_PLPMTU) and probes upwards
 * with padded probe packets, one outstanding at a time. A size is confirmed only when a probe of that
 * size is acknowledged (section 4.1); the first probe tries the largest size this sender would use (most
 * paths take it), then the search halves the interval between the largest confirmed size and the
 * smallest that failed until nothing lies between them. A size fails when {@link #MAX_PROBES} probes of
 * it in a row are lost (section 5.1.2, MAX_PROBES), or at once when the local stack refuses to send it
 * (EMSGSIZE: the datagram is larger than the interface's or the kernel's path MTU, and the socket does
 * not fragment). The search ends when every size above the confirmed one has failed, or at the largest
 * size; after {@link #RAISE_NANOS} at less than the largest size it searches again upwards (section
 * 5.1.1, PMTU_RAISE_TIMER).
 *
 * <p>A path whose MTU drops while data flows (section 4.3, black-hole detection): once
 * {@link #BLACK_HOLE_LOSSES} data packets larger than the base are lost in a row (no larger packet
 * acknowledged between them), the search re-probes the confirmed size; if {@link #MAX_PROBES} such
 * probes in a row are lost (and no large data packet was acknowledged meanwhile), it sends a probe of
 * the base size, and if that one is acknowledged the confirmed size falls back to the base and the
 * search starts again below the size that stopped passing. A confirmed-size probe that passes, or a
 * large data packet acknowledged, ends the suspicion (congestion, not the MTU: a retransmission
 * timeout marks a whole window of full-size packets lost at once); so does a lost base probe (an
 * outage), though then the next large loss checks again. A data packet of the confirmed size refused
 * by the local stack (the interface's MTU was lowered) drops to the base at once.
 *
 * <p>Invariant: {@code base <= confirmed <= ceiling <= max}, where {@code ceiling} is the largest size
 * not known to fail; the search is complete when {@code confirmed == ceiling}.
 */
public final class PathMtuSearch {
    /** Starting size, assumed to pass every path (QUIC's 1,200 bytes). */
    public static final int BASE = 1200;
    /** Probes of one size lost in a row before the size counts as too big (RFC 8899 MAX_PROBES). */
    public static final int MAX_PROBES = 3;
    /** Time after a search ended below the largest size until it searches upwards again (PMTU_RAISE_TIMER). */
    public static final long RAISE_NANOS = 600_000_000_000L;
    /** Data packets larger than the base lost in a row before a base-size probe checks for a black hole. */
    public static final int BLACK_HOLE_LOSSES = 3;

    private final int base;
    private final int max;
    private final long raiseNanos;
    private int confirmed;
    private int ceiling;
    /** Size of the outstanding probe, 0 when none. */
    private int probing;
    private long probeSentAt;
    /** The outstanding probe is a base-size check for a black hole. */
    private boolean checking;
    /** The size being tried (probed again after a loss until it passes or fails), 0 when none. */
    private int candidate;
    /** Probes of the candidate lost in a row. */
    private int lostInARow;
    /** When a complete search below {@code max} searches upwards again; meaningless otherwise. */
    private long raiseAt;
    private int largeLosses;
    /** Checking for a black hole: probes of the confirmed size, then one of the base size. */
    private boolean suspect;
    /** Probes of the confirmed size lost in a row while checking. */
    private int checkLosses;
    /** The largest size was probed in this search (after it, the interval is halved). */
    private boolean tried;
    private long probesSent;
    private long probesLost;
    private long refusals;
    private long blackHoles;

    /** Searches between {@link #BASE} (or {@code max} if smaller) and {@code max}, raising after {@link #RAISE_NANOS}. */
    public PathMtuSearch(int max) {
        this(Math.min(BASE, max), max, RAISE_NANOS);
    }

    /**
     * @param base the starting size, assumed to pass (> 0)
     * @param max the largest size this sender would use (>= base): the search never goes above it
     * @param raiseNanos time after a search ended below {@code max} until it searches upwards again (> 0)
     */
    public PathMtuSearch(int base, int max, long raiseNanos) {
        if (base <= 0 || max < base) {
            throw new IllegalArgumentException("need 0 < base <= max, was base " + base + ", max " + max);
        }
        if (raiseNanos <= 0) {
            throw new IllegalArgumentException("raise timer must be positive, was " + raiseNanos + " ns");
        }
        this.base = base;
        this.max = max;
        this.raiseNanos = raiseNanos;
        this.confirmed = base;
        this.ceiling = max;
    }

    /** The largest confirmed size (RFC 8899's PLPMTU): no packet but a probe should be larger. */
    public int confirmed() {
        return confirmed;
    }

    /** True when nothing is left to search (until the raise timer, or a black hole, starts it again). */
    public boolean complete() {
        return confirmed == ceiling && !suspect;
    }

    /**
     * The size of a probe to send now, or 0 for none; a size returned counts as sent at {@code now}. At
     * most one probe is outstanding; the caller declares it lost with {@link #expire} (or the ack or a
     * refusal ends it).
     */
    public int nextProbe(long now) {
        if (probing != 0) {
            return 0;
        }
        int size;
        if (suspect) {
            size = checkLosses < MAX_PROBES ? confirmed : base;
            checking = true;
        } else {
            if (candidate == 0) {
                if (confirmed == ceiling) {
                    if (ceiling == max || now - raiseAt < 0) {
                        return 0;
                    }
                    ceiling = max;   // the raise timer: search upwards again
                    tried = false;
                }
                // first the largest size (most paths take it), then halve the interval
                candidate = tried ? confirmed + (ceiling - confirmed + 1) / 2 : ceiling;
                tried = true;
            }
            size = candidate;
            checking = false;
        }
        probing = size;
        probeSentAt = now;
        probesSent++;
        return size;
    }

    /** The outstanding probe, if any, is lost when it has waited {@code timeoutNanos} without an ack. */
    public void expire(long now, long timeoutNanos) {
        if (probing == 0 || now - probeSentAt < timeoutNanos) {
            return;
        }
        int size = probing;
        probing = 0;
        probesLost++;
        if (checking) {
            checking = false;
            if (size == base) {
                // even the base size did not pass: an outage, not the MTU; the next large loss checks again
                suspect = false;
                checkLosses = 0;
            } else {
                checkLosses++;
            }
            return;
        }
        if (size == candidate && ++lostInARow >= MAX_PROBES) {
            fail(size, now);
        }
    }

    /** A probe of {@code size} was acknowledged (late ones count: the size passed). */
    public void probeAcked(int size, long now) {
        boolean check = checking && size == probing;
        if (size == probing) {
            probing = 0;
        }
        if (check) {
            checking = false;
            if (suspect) {
                boolean baseOnly = size == base && checkLosses >= MAX_PROBES;
                endSuspicion();   // the confirmed size passed: congestion, not the MTU
                if (baseOnly && confirmed > base) {
                    blackHoles++;   // the base passes while larger data did not: the path's MTU dropped
                    int stopped = confirmed;
                    confirmed = base;
                    candidate = 0;
                    tried = true;   // search between the base and the size that stopped passing
                    fail(stopped, now);
                }
            }
            return;
        }
        if (suspect && size >= confirmed) {
            endSuspicion();   // a late answer to a check: the confirmed size passes
        }
        if (size > confirmed && size <= max) {
            confirmed = size;
            ceiling = Math.max(ceiling, size);
            if (candidate != 0 && candidate <= size) {
                candidate = 0;
                lostInARow = 0;
            }
            searchEnded(now);
        }
    }

    /**
     * The local stack refused to send a datagram of {@code size} (EMSGSIZE): that size does not fit
     * the path as this host sees it. A refused probe fails its size at once; a refused packet of the
     * confirmed size or smaller drops the confirmed size to the base and searches below it again.
     */
    public void refused(int size, long now) {
        refusals++;
        if (size == probing) {
            probing = 0;
            checking = false;
        }
        if (size <= base) {
            endSuspicion();   // below the base nothing is searched: the path cannot carry this transport
            return;
        }
        if (size <= confirmed) {
            confirmed = base;
            tried = true;
        }
        fail(size, now);
    }

    /**
     * Data packets larger than the base size were found lost ({@code lost} of them) or one was
     * acknowledged ({@code lost} = 0, {@code largeAcked}); feeds black-hole detection.
     */
    public void dataOutcome(int lost, boolean largeAcked) {
        if (largeAcked) {
            endSuspicion();   // a large packet passed: no black hole (a check in flight ends unused)
            return;
        }
        largeLosses += lost;
        if (largeLosses >= BLACK_HOLE_LOSSES && confirmed > base && !suspect) {
            suspect = true;
            if (probing != 0 && !checking) {
                probing = 0;   // an upward probe in flight is moot; the check goes next
            }
        }
    }

    private void endSuspicion() {
        suspect = false;
        largeLosses = 0;
        checkLosses = 0;
    }

    private void fail(int size, long now) {
        if (size - 1 < ceiling) {
            ceiling = Math.max(confirmed, size - 1);
        }
        if (candidate >= size || candidate > ceiling) {
            candidate = 0;
            lostInARow = 0;
        }
        searchEnded(now);
    }

    private void searchEnded(long now) {
        if (confirmed == ceiling) {
            raiseAt = now + raiseNanos;
        }
    }

    /** The largest size this search would use. */
    public int max() {
        return max;
    }

    /** The smallest size, assumed to pass. */
    public int base() {
        return base;
    }

    /** Size of the outstanding probe, 0 when none. */
    public int probing() {
        return probing;
    }

    public long probesSent() {
        return probesSent;
    }

    public long probesLost() {
        return probesLost;
    }

    /** Datagrams the local stack refused as too big (EMSGSIZE) that reached the search. */
    public long refusals() {
        return refusals;
    }

    /** Times the path's MTU was found to have dropped while data flowed. */
    public long blackHoles() {
        return blackHoles;
    }

    @Override
    public String toString() {
        return "PathMtu{confirmed=" + confirmed + " ceiling=" + ceiling + " max=" + max
                + (probing != 0 ? " probing=" + probing : "") + (suspect ? " suspect" : "") + "}";
    }
}
