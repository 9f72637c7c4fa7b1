package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * The placement policies of SPEC.md: where the replicas of one block go, given the uploading
 * (local) region and what the RTT monitor knows. Pure; random choices use the given Random over a
 * sorted candidate list, so a seeded Random gives the same placement every run.
 */
public enum Policy {
    /** One copy on a uniformly random region that is up. */
    RANDOM(1),
    /** Two copies on two different random regions that are up. */
    TWORANDOM(2),
    /** One copy on the local region. */
    LOCAL(1),
    /** Local, plus the up peer with the lowest RTT from the local region. */
    LOCALCLOSEST(2),
    /** Local, plus the up peer with the highest RTT from the local region. */
    LOCALFARTHEST(2);

    private final int copies;

    Policy(int copies) {
        this.copies = copies;
    }

    public int copies() {
        return copies;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Policy parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("unknown policy '" + s + "'; choose one of " + names());
        }
    }

    public static String names() {
        return Arrays.stream(values()).map(Policy::id).collect(Collectors.joining(", "));
    }

    /** The regions that get a replica, first the primary; {@code rtt.self()} is the local region. */
    public List<String> place(RttTable rtt, Random random) throws PlacementException {
        List<String> up = rtt.upRegions();
        switch (this) {
            case LOCAL:
                return List.of(rtt.self());
            case RANDOM:
                return List.of(up.get(random.nextInt(up.size())));
            case TWORANDOM: {
                if (up.size() < 2) {
                    throw new PlacementException("tworandom needs 2 regions up, only " + up + " are");
                }
                List<String> pool = new ArrayList<>(up);
                String first = pool.remove(random.nextInt(pool.size()));
                return List.of(first, pool.get(random.nextInt(pool.size())));
            }
            case LOCALCLOSEST:
                return List.of(rtt.self(), need(rtt.closest()));
            case LOCALFARTHEST:
                return List.of(rtt.self(), need(rtt.farthest()));
            default:
                throw new IllegalStateException("unhandled policy " + this);
        }
    }

    private String need(Optional<String> peer) throws PlacementException {
        return peer.orElseThrow(() -> new PlacementException(
                id() + " needs a second region that is up; no peer answers RTT probes"));
    }
}
