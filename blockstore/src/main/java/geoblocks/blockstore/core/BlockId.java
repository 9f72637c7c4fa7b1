package geoblocks.blockstore.core;

import java.util.regex.Pattern;

/**
 * The name of a stored block. Invariant: 1..240 characters of {@code [A-Za-z0-9._-]}, starting with
 * a letter or digit, so an id from the network can never name a path outside the store.
 */
public record BlockId(String value) implements Comparable<BlockId> {
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,239}");

    public BlockId {
        if (value == null || !VALID.matcher(value).matches()) {
            throw new IllegalArgumentException("invalid block id '" + value
                    + "': must be 1..240 chars of [A-Za-z0-9._-] starting with a letter or digit");
        }
    }

    public static BlockId of(String value) {
        return new BlockId(value);
    }

    /** The id of block {@code index} of the file with the given file id. */
    public static BlockId ofFileBlock(String fileId, int index) {
        return new BlockId("b-" + fileId + "-" + index);
    }

    @Override
    public int compareTo(BlockId o) {
        return value.compareTo(o.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
