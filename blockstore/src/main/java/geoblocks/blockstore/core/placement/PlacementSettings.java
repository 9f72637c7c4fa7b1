package geoblocks.blockstore.core.placement;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import geoblocks.blockstore.core.Policy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The placement settings of a node, read from {@code geoblocks.placement} (see blockstore's
 * reference.conf) and checked once, at start-up, against the cluster's regions: zones, egress
 * costs, declarative policies, custom policy classes and the {@code balanced} policy's settings.
 * Every refusal is an IllegalArgumentException whose message starts with the offending key.
 */
public record PlacementSettings(Zones zones, Map<String, Double> egressCost, List<DeclarativeSpec> policies,
        List<String> classes, int balancedCopies, double balancedMaxSpread) {
    public static final String ROOT = "geoblocks.placement";
    /** Names of policies and zones: what a client can type and a HOCON key can hold unquoted. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
    private static final Set<String> POLICY_KEYS = Set.of("copies", "terms", "require", "forbid", "max-per-zone",
            "max-disk-use", "max-io-rate");
    private static final Set<String> ROOT_KEYS = Set.of("zones", "egress-cost", "policies", "classes", "balanced");

    public PlacementSettings {
        egressCost = Map.copyOf(egressCost);
        policies = List.copyOf(policies);
        classes = List.copyOf(classes);
    }

    /** No zones, costs, declarative or custom policies; balanced with 2 copies and a 10 % spread. */
    public static PlacementSettings defaults() {
        return new PlacementSettings(Zones.none(), Map.of(), List.of(), List.of(), 2, 0.10);
    }

    /** Reads and checks {@code geoblocks.placement} of {@code root} for a cluster of {@code regions}. */
    public static PlacementSettings from(Config root, Collection<String> regions) {
        if (!root.hasPath(ROOT)) {
            return defaults();
        }
        try {
            Config c = root.getConfig(ROOT);
            unknownKeys(c.root().keySet(), ROOT_KEYS, ROOT);
            Zones zones = zones(c, regions);
            Map<String, Double> costs = costs(c, regions);
            List<DeclarativeSpec> specs = new ArrayList<>();
            if (c.hasPath("policies")) {
                for (Map.Entry<String, ConfigValue> e : new TreeMap<>(c.getObject("policies")).entrySet()) {
                    specs.add(policy(c, e.getKey(), e.getValue(), zones, costs, regions));
                }
            }
            List<String> classes = c.hasPath("classes") ? c.getStringList("classes") : List.of();
            int copies = c.hasPath("balanced.copies") ? c.getInt("balanced.copies") : 2;
            double spread = c.hasPath("balanced.max-disk-spread") ? c.getDouble("balanced.max-disk-spread") : 0.10;
            if (c.hasPath("balanced")) {
                unknownKeys(c.getObject("balanced").keySet(), Set.of("copies", "max-disk-spread"), ROOT + ".balanced");
            }
            if (copies < 1 || copies > regions.size()) {
                throw new IllegalArgumentException(ROOT + ".balanced.copies must be in 1.." + regions.size()
                        + " (the cluster's regions), was " + copies);
            }
            if (!(spread >= 0 && spread <= 1)) {
                throw new IllegalArgumentException(ROOT + ".balanced.max-disk-spread must be a fraction in 0..1, was "
                        + spread);
            }
            return new PlacementSettings(zones, costs, specs, classes, copies, spread);
        } catch (ConfigException e) {
            throw new IllegalArgumentException("bad placement setting: " + e.getMessage());
        }
    }

    private static Zones zones(Config c, Collection<String> regions) {
        Map<String, List<String>> members = new LinkedHashMap<>();
        Map<String, String> seen = new TreeMap<>();
        if (!c.hasPath("zones")) {
            return Zones.none();
        }
        for (String zone : new TreeMap<>(c.getObject("zones")).keySet()) {
            String key = ROOT + ".zones." + zone;
            if (!NAME.matcher(zone).matches() || regions.contains(zone)) {
                throw new IllegalArgumentException(key + ": a zone name must match " + NAME.pattern()
                        + " and differ from every region id");
            }
            List<String> rs = c.getStringList("zones." + zone);
            if (rs.isEmpty()) {
                throw new IllegalArgumentException(key + " lists no region");
            }
            for (String r : rs) {
                if (!regions.contains(r)) {
                    throw new IllegalArgumentException(key + ": unknown region '" + r + "'; the cluster has " + regions);
                }
                String other = seen.put(r, zone);
                if (other != null) {
                    throw new IllegalArgumentException(key + ": region " + r + " is already in zone " + other
                            + "; a region belongs to one zone");
                }
            }
            members.put(zone, rs);
        }
        return new Zones(members);
    }

    private static Map<String, Double> costs(Config c, Collection<String> regions) {
        Map<String, Double> costs = new TreeMap<>();
        if (!c.hasPath("egress-cost")) {
            return costs;
        }
        for (String r : c.getObject("egress-cost").keySet()) {
            String key = ROOT + ".egress-cost." + r;
            if (!regions.contains(r)) {
                throw new IllegalArgumentException(key + ": unknown region '" + r + "'; the cluster has " + regions);
            }
            double v = c.getDouble("egress-cost.\"" + r + "\"");
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException(key + " must be a number >= 0, was " + v);
            }
            costs.put(r, v);
        }
        return costs;
    }

    private static DeclarativeSpec policy(Config c, String name, ConfigValue value, Zones zones,
            Map<String, Double> costs, Collection<String> regions) {
        String key = ROOT + ".policies." + name;
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(key + ": a policy name must match " + NAME.pattern());
        }
        if (isBuiltIn(name)) {
            throw new IllegalArgumentException(key + ": '" + name + "' is a built-in policy; choose another name");
        }
        if (value.valueType() != ConfigValueType.OBJECT) {
            throw new IllegalArgumentException(key + " must be an object { copies = ..., terms = [...] }");
        }
        try {
            return policy(key, name, c.getConfig("policies." + name), zones, costs, regions);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage());
        }
    }

    private static DeclarativeSpec policy(String key, String name, Config p, Zones zones, Map<String, Double> costs,
            Collection<String> regions) {
        unknownKeys(p.root().keySet(), POLICY_KEYS, key);
        for (String required : List.of("copies", "terms")) {
            if (!p.hasPath(required)) {
                throw new IllegalArgumentException(key + "." + required + " is missing");
            }
        }
        List<Term> terms = new ArrayList<>();
        List<String> termNames = p.getStringList("terms");
        for (int i = 0; i < termNames.size(); i++) {
            try {
                terms.add(Term.parse(termNames.get(i)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + ".terms[" + i + "]: " + e.getMessage());
            }
        }
        DeclarativeSpec spec = new DeclarativeSpec(name, p.getInt("copies"), terms,
                p.hasPath("require") ? p.getStringList("require") : List.of(),
                p.hasPath("forbid") ? p.getStringList("forbid") : List.of(),
                p.hasPath("max-per-zone") ? p.getInt("max-per-zone") : 0,
                p.hasPath("max-disk-use") ? p.getDouble("max-disk-use") : 1.0,
                p.hasPath("max-io-rate") ? p.getBytes("max-io-rate") : 0);
        spec.check(key, zones, regions, costs);
        return spec;
    }

    /** True for the seed policies, localclosest3 and balanced, whose names a declarative or custom policy cannot take. */
    public static boolean isBuiltIn(String name) {
        for (Policy s : Policy.values()) {
            if (s.id().equals(name)) {
                return true;
            }
        }
        return BalancedPolicy.NAME.equals(name) || NearestPolicy.nameFor(3).equals(name);
    }

    private static void unknownKeys(Set<String> keys, Set<String> known, String where) {
        for (String k : new TreeSet<>(keys)) {
            if (!known.contains(k)) {
                throw new IllegalArgumentException(where + "." + k + ": unknown key; known keys are " + new TreeSet<>(known));
            }
        }
    }
}
