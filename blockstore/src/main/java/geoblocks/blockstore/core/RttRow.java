package geoblocks.blockstore.core;

import geoblocks.net.ClusterConfig;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * One node's row of the cluster's RTT matrix, as its RTT probes carry it to the others: for each
 * peer region (at most {@link #MAX_PEERS}), the smoothed RTT in whole microseconds, or {@link #DOWN}.
 * Region ids match {@link #ID_PATTERN} (1 to {@link #MAX_ID_BYTES} ASCII characters), as in the cluster config.
 */
public record RttRow(Map<String, Long> rttMicros) {
    /** The RTT of a peer that is down or not heard from yet. */
    public static final long DOWN = -1;
    /** Peers a row may list; a larger cluster sends the first ones by region id. */
    public static final int MAX_PEERS = 32;
    public static final int MAX_ID_BYTES = 32;
    /** Region ids as the cluster config allows them. */
    public static final String ID_PATTERN = ClusterConfig.REGION_ID;
    /** {@link #ID_PATTERN} compiled once: rows are built for every probe (String.matches compiles each time). */
    private static final Pattern ID = Pattern.compile(ID_PATTERN);

    /** True when {@code region} is a region id as the cluster config allows them. */
    public static boolean validId(String region) {
        return ID.matcher(region).matches();
    }
    /** The largest RTT a row carries (the wire's u32 less the down marker): about 71 minutes. */
    public static final long MAX_MICROS = 0xFFFF_FFFEL;

    public RttRow {
        if (rttMicros.size() > MAX_PEERS) {
            throw new IllegalArgumentException("an RTT row lists at most " + MAX_PEERS + " peers, was " + rttMicros.size());
        }
        rttMicros.forEach((r, us) -> {
            if (!validId(r)) {
                throw new IllegalArgumentException("region id must match " + ID_PATTERN + ", was '" + r + "'");
            }
            if (us < DOWN || us > MAX_MICROS) {
                throw new IllegalArgumentException("RTT of " + r + " must be DOWN or 0.." + MAX_MICROS + " us, was " + us);
            }
        });
        rttMicros = Collections.unmodifiableMap(new TreeMap<>(rttMicros));
    }

    /** The row of {@code table}: its up peers' estimates (rounded to microseconds), its down peers as DOWN. */
    public static RttRow of(RttTable table) {
        TreeMap<String, Long> row = new TreeMap<>();
        table.upRttMs().forEach((r, ms) -> row.put(r, Math.min(MAX_MICROS, Math.max(0, Math.round(ms * 1000)))));
        table.down().forEach(r -> row.put(r, DOWN));
        while (row.size() > MAX_PEERS) {
            row.pollLastEntry();
        }
        return new RttRow(row);
    }
}
