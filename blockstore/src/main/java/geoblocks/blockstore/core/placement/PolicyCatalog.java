package geoblocks.blockstore.core.placement;

import java.util.List;
import java.util.Locale;

/**
 * The names and rules of the policies a node knows, without the policies themselves: what the file
 * service needs to refuse an unknown policy at once and to answer {@code client policies}, while
 * every placement goes through the placement component.
 */
public record PolicyCatalog(List<PolicyDescription> policies) {
    public PolicyCatalog {
        policies = List.copyOf(policies);
    }

    /** The canonical name of {@code name} (any case, blanks around ignored); refuses an unknown one, listing the known. */
    public String canonical(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (PolicyDescription p : policies) {
            if (p.name().equals(n)) {
                return n;
            }
        }
        throw new IllegalArgumentException("unknown policy '" + name + "'; choose one of " + names());
    }

    public String names() {
        return String.join(", ", policies.stream().map(PolicyDescription::name).toList());
    }

    /**
     * Whether placement spreads the copies of {@code name} over the layout's zones ({@link ZoneSpread}):
     * a seed or built-in policy. Declarative and custom policies state their own zone rules.
     */
    public boolean zoneSpread(String name) {
        for (PolicyDescription p : policies) {
            if (p.name().equals(name)) {
                return p.kind().equals("seed") || p.kind().equals("built-in");
            }
        }
        return false;
    }
}
