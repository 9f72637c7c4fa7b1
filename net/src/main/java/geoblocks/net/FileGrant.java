package geoblocks.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One file permission of an access key: the names starting with {@code prefix}, to read (get, stat, versions,
 * list) and/or to write (put, delete). Written {@code PREFIX:r}, {@code PREFIX:w} or {@code PREFIX:rw}; a key's
 * grants are a comma-separated list of them ({@link #parseAll}), so a prefix holds no comma and no control
 * character. The empty prefix is every name a key may reach at all (never the names the node's gateway keeps:
 * see the file protocol's doors).
 */
public record FileGrant(String prefix, boolean read, boolean write) {
    /** Longest prefix, in characters (a file name holds at most 1,088 UTF-8 bytes). */
    public static final int MAX_PREFIX = 1088;

    public FileGrant {
        Objects.requireNonNull(prefix, "prefix");
        if (!read && !write) {
            throw new IllegalArgumentException("a file grant allows reading, writing or both: '" + prefix + "' allows none");
        }
        if (prefix.length() > MAX_PREFIX) {
            throw new IllegalArgumentException("a file grant's prefix holds at most " + MAX_PREFIX + " characters, was "
                    + prefix.length());
        }
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c < 0x20 || c == 0x7f || c == ',') {
                throw new IllegalArgumentException("a file grant's prefix holds no comma or control character: '"
                        + prefix + "' (character " + i + ")");
            }
        }
    }

    /** One grant, {@code PREFIX:r|w|rw}; IllegalArgumentException naming the text when it is not one. */
    public static FileGrant parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("a file grant is PREFIX:r, PREFIX:w or PREFIX:rw, was '" + text + "'");
        }
        String mode = text.substring(colon + 1);
        if (!mode.equals("r") && !mode.equals("w") && !mode.equals("rw")) {
            throw new IllegalArgumentException("a file grant is PREFIX:r, PREFIX:w or PREFIX:rw, was '" + text + "'");
        }
        return new FileGrant(text.substring(0, colon), mode.contains("r"), mode.contains("w"));
    }

    /** Grants written {@code G1,G2,...} ({@link #format}); the empty text is none. */
    public static List<FileGrant> parseAll(String text) {
        List<FileGrant> out = new ArrayList<>();
        if (!text.isEmpty()) {
            for (String part : text.split(",", -1)) {
                out.add(parse(part));
            }
        }
        return List.copyOf(out);
    }

    /** {@code grants} as {@link #parseAll} reads them. */
    public static String format(List<FileGrant> grants) {
        StringBuilder b = new StringBuilder();
        for (FileGrant g : grants) {
            b.append(b.length() == 0 ? "" : ",").append(g);
        }
        return b.toString();
    }

    /** Whether this grant lets its holder read {@code name}. */
    public boolean reads(String name) {
        return read && name.startsWith(prefix);
    }

    /** Whether this grant lets its holder write {@code name}. */
    public boolean writes(String name) {
        return write && name.startsWith(prefix);
    }

    @Override
    public String toString() {
        return prefix + ":" + (read ? "r" : "") + (write ? "w" : "");
    }
}
