package geoblocks.blockstore.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;

/**
 * Which region decides {@code put --if-absent} for a name: rendezvous (highest random weight)
 * hashing (Thaler and Ravishankar, "Using Name-Based Mappings to Increase Hit Rates", IEEE/ACM ToN
 * 1998): each region scores SHA-256(region, name) and the highest score owns the name. Every node
 * with the same region list computes the same owner with no coordination; adding or removing one
 * region moves only the names that region wins or held (about 1/N of them). Pure.
 */
public final class Owners {
    private Owners() {}

    /** The owner of {@code name} among {@code regions} (not empty). */
    public static String ownerOf(String name, Collection<String> regions) {
        if (regions.isEmpty()) {
            throw new IllegalArgumentException("no regions to choose the owner of '" + name + "' from");
        }
        String best = null;
        long bestScore = 0;
        for (String r : regions) {
            long score = score(r, name);
            if (best == null || Long.compareUnsigned(score, bestScore) > 0
                    || (score == bestScore && r.compareTo(best) < 0)) {
                best = r;
                bestScore = score;
            }
        }
        return best;
    }

    private static long score(String region, String name) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(region.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(name.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(sha.digest()).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
