package geoblocks.blockstore.core;

import java.util.Objects;

/**
 * The identity and the order of one version of a file: the {@link HybridClock} value that stamped
 * it and the region whose clock did. Versions order by clock, then by region id (a tie-break that
 * every node applies the same way), so the highest version of a name is the same everywhere once
 * the same versions are known. Where a version's blocks live is not part of it (see
 * {@link Manifest#locEpoch()}), so moving blocks never changes which version wins.
 *
 * <p>Text form (the id users see and pass to {@code get --version}): 16 hex digits of the clock,
 * {@code @}, the region, e.g. {@code 018c3f2a1b2c0003@seoul}; ids sort like versions within one
 * region.
 */
public record Version(long clock, String region) implements Comparable<Version> {
    public Version {
        Objects.requireNonNull(region, "region");
        if (clock < 0) {
            throw new IllegalArgumentException("version clock must be >= 0, was " + clock);
        }
        if (region.isEmpty() || region.length() > 64 || region.indexOf('@') >= 0) {
            throw new IllegalArgumentException("version region must be 1..64 characters without '@', was '" + region + "'");
        }
    }

    /**
     * The version a manifest written before versions existed stands for: its creation time as the
     * clock (counter 0) and its upload region. Deterministic, so every node maps it the same way.
     */
    public static Version legacy(long createdMillis, String uploadedAt) {
        long ms = Math.max(0, Math.min(createdMillis, HybridClock.MAX_PHYSICAL));
        return new Version(HybridClock.of(ms, 0), uploadedAt.isEmpty() ? "legacy" : uploadedAt.replace('@', '_'));
    }

    /** The wall-clock milliseconds of the clock that stamped this version. */
    public long millis() {
        return HybridClock.physicalMillis(clock);
    }

    public String id() {
        return String.format("%016x@%s", clock, region);
    }

    /** Parses an id made by {@link #id()}; the message says what is wrong with a bad one. */
    public static Version parse(String id) {
        int at = id == null ? -1 : id.indexOf('@');
        if (at != 16) {
            throw new IllegalArgumentException("version id must be 16 hex digits, '@' and a region (as `versions` prints it), was '"
                    + id + "'");
        }
        long clock;
        try {
            clock = Long.parseUnsignedLong(id.substring(0, 16), 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("version id must start with 16 hex digits, was '" + id + "'");
        }
        return new Version(clock, id.substring(17));
    }

    @Override
    public int compareTo(Version o) {
        int c = Long.compare(clock, o.clock);
        return c != 0 ? c : region.compareTo(o.region);
    }

    @Override
    public String toString() {
        return id();
    }
}
