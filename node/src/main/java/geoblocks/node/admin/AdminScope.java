package geoblocks.node.admin;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** What an admin token may do; a request needs one scope, named by its route. */
public enum AdminScope {
    /** Read the cluster layout, and change it: add, set, drain, remove regions. */
    CLUSTER,
    /** Move a file's replicas, purge a version (bypassing S3 object lock). */
    DATA,
    /** Create, list and revoke admin tokens (never with scopes the creating token lacks). */
    TOKENS,
    /** Create, list and revoke the S3 gateway's access keys. */
    KEYS;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The scope named {@code label}; IllegalArgumentException naming the three when none is. */
    public static AdminScope of(String label) {
        for (AdminScope s : values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("admin scope must be cluster, data, tokens or keys, was '" + label + "'");
    }

    /** Scopes from labels separated by commas; at least one. */
    public static Set<AdminScope> parse(String labels) {
        Set<AdminScope> out = EnumSet.noneOf(AdminScope.class);
        for (String l : labels.split(",", -1)) {
            out.add(of(l.trim()));
        }
        return out;
    }

    /** Labels joined by commas, in a fixed order. */
    public static String labels(Set<AdminScope> scopes) {
        Set<String> l = new TreeSet<>();
        scopes.forEach(s -> l.add(s.label()));
        return String.join(",", l);
    }
}
