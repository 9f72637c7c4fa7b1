package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.PlacementException;
import geoblocks.blockstore.core.Policy;
import geoblocks.blockstore.wire.FailureCode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Every placement policy a node knows, by name, in the order {@code client policies} lists them:
 * the five seeds, {@code localclosest3}, {@code balanced}, the declarative ones, then the custom
 * ones (found with {@link ServiceLoader}, then {@code geoblocks.placement.classes}). {@link #decide} asks the named
 * policy and checks its answer: exactly the copies it promised, distinct, every one a
 * {@link PlacementInput#candidates() candidate} (so no policy can place on a region that is down,
 * that holds the block already, or whose disk would fall below its reserve).
 */
public final class PolicySet {
    /** Rule every policy obeys, printed under the list. */
    public static final String COMMON_RULE = "every policy: only regions that are up, do not hold the block yet and"
            + " keep their disk reserve after it";
    private final Map<String, PlacementPolicy> byName;
    private final Map<String, String> kinds;

    /** Seed policies that pick their regions at random (ZoneSpread picks their moved copies at random too). */
    private static final Set<String> RANDOM_POLICIES = Set.of(Policy.RANDOM.id(), Policy.TWORANDOM.id());

    private PolicySet(Map<String, PlacementPolicy> byName, Map<String, String> kinds) {
        this.byName = byName;
        this.kinds = kinds;
    }

    /** The seeds, balanced and the custom policies on the class path, with default settings. */
    public static PolicySet defaults() {
        return build(PlacementSettings.defaults(), PlacementPolicy.class.getClassLoader());
    }

    /**
     * Every policy of {@code s}, custom classes loaded with {@code loader}. Refuses (naming the class
     * or key) a class that cannot be loaded or made, and a name that is invalid or taken twice.
     */
    public static PolicySet build(PlacementSettings s, ClassLoader loader) {
        return build(s, loader, List.of());
    }

    /** As {@link #build(PlacementSettings, ClassLoader)}, with {@code extra} policy instances as custom ones (tests). */
    static PolicySet build(PlacementSettings s, ClassLoader loader, List<PlacementPolicy> extra) {
        Map<String, PlacementPolicy> byName = new LinkedHashMap<>();
        Map<String, String> kinds = new LinkedHashMap<>();
        for (Policy seed : Policy.values()) {
            add(byName, kinds, new SeedPolicy(seed), "seed", "seed policy");
        }
        add(byName, kinds, new NearestPolicy(3), "built-in", "built-in " + NearestPolicy.nameFor(3));
        add(byName, kinds, new BalancedPolicy(s.balancedCopies(), s.balancedMaxSpread()), "built-in",
                PlacementSettings.ROOT + ".balanced");
        for (DeclarativeSpec spec : s.policies()) {
            add(byName, kinds, new DeclarativePolicy(spec, s.zones(), s.egressCost()), "declarative",
                    PlacementSettings.ROOT + ".policies." + spec.name());
        }
        try {
            for (PlacementPolicy p : ServiceLoader.load(PlacementPolicy.class, loader)) {
                add(byName, kinds, p, "custom", "service " + p.getClass().getName());
            }
        } catch (ServiceConfigurationError e) {
            throw new IllegalArgumentException("a custom placement policy on the class path (META-INF/services/"
                    + PlacementPolicy.class.getName() + ") cannot be loaded: " + e.getMessage());
        }
        Set<String> fromServices = new HashSet<>(byName.keySet());
        for (int i = 0; i < s.classes().size(); i++) {
            String cls = s.classes().get(i);
            PlacementPolicy p = instantiate(cls, loader, PlacementSettings.ROOT + ".classes[" + i + "]");
            if (fromServices.contains(p.name()) && byName.get(p.name()).getClass() == p.getClass()) {
                continue; // found by ServiceLoader too
            }
            add(byName, kinds, p, "custom", PlacementSettings.ROOT + ".classes[" + i + "] (" + cls + ")");
        }
        for (PlacementPolicy p : extra) {
            add(byName, kinds, p, "custom", "instance " + p.getClass().getName());
        }
        return new PolicySet(byName, kinds);
    }

    private static PlacementPolicy instantiate(String cls, ClassLoader loader, String key) {
        try {
            Class<?> c = Class.forName(cls, true, loader);
            if (!PlacementPolicy.class.isAssignableFrom(c)) {
                throw new IllegalArgumentException(key + ": " + cls + " does not implement " + PlacementPolicy.class.getName());
            }
            return (PlacementPolicy) c.getConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(key + ": class " + cls + " is not on the class path");
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae && iae.getMessage().startsWith(key)) {
                throw iae;
            }
            throw new IllegalArgumentException(key + ": cannot create " + cls + " with its public no-argument"
                    + " constructor: " + e);
        }
    }

    private static void add(Map<String, PlacementPolicy> byName, Map<String, String> kinds, PlacementPolicy p,
            String kind, String where) {
        String name = p.name();
        if (name == null || !PlacementSettings.NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(where + ": policy name '" + name + "' must match "
                    + PlacementSettings.NAME.pattern());
        }
        if (p.copies() < 1) {
            throw new IllegalArgumentException(where + ": policy " + name + " must place at least 1 copy, says "
                    + p.copies());
        }
        if (byName.containsKey(name)) {
            throw new IllegalArgumentException(where + ": policy name '" + name + "' is taken by the " + kinds.get(name)
                    + " policy " + byName.get(name).getClass().getName());
        }
        byName.put(name, p);
        kinds.put(name, kind);
    }

    /** Names and rules of every policy, for the file service and {@code client policies}. */
    public PolicyCatalog catalog() {
        return new PolicyCatalog(describe());
    }

    /** The policy called {@code name} (any case, surrounding blanks ignored). */
    public Optional<PlacementPolicy> find(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(byName.get(name.trim().toLowerCase(Locale.ROOT)));
    }

    /** The canonical name of policy {@code name}; refuses an unknown one, listing the known. */
    public String canonical(String name) {
        return find(name).map(PlacementPolicy::name).orElseThrow(() -> new IllegalArgumentException(
                "unknown policy '" + name + "'; choose one of " + names()));
    }

    public String names() {
        return String.join(", ", byName.keySet());
    }

    /** Each policy's name, kind, copies and rules. */
    public List<PolicyDescription> describe() {
        List<PolicyDescription> out = new ArrayList<>();
        byName.forEach((n, p) -> out.add(new PolicyDescription(n, kinds.get(n), p.copies(), p.describe())));
        return out;
    }

    /** The answer to one placement question: the regions, or why there are none. */
    public record Decision(List<String> regions, String refusal, FailureCode code) {
        /** Placed ({@code refusal} null), or refused for a reason other than room: UNAVAILABLE. */
        public Decision(List<String> regions, String refusal) {
            this(regions, refusal, refusal == null ? null : FailureCode.UNAVAILABLE);
        }

        public boolean ok() {
            return refusal == null;
        }
    }

    /**
     * Asks the request's policy and checks its answer. A replacement for a policy this node does not
     * know (a manifest from a node with other settings) uses the default rule: the nearest candidate.
     */
    public Decision decide(PlacementRequest r, PlacementInput in) {
        PlacementPolicy p = find(r.policy()).orElse(null);
        if (p == null && !r.isReplacement()) {
            return new Decision(null, "unknown policy '" + r.policy() + "'; choose one of " + names());
        }
        String name = p == null ? r.policy() + " (unknown here: nearest region)" : p.name();
        List<String> regions;
        try {
            if (p == null) {
                regions = List.of(DEFAULT_REPLACEMENT.replace(in));
            } else {
                regions = r.isReplacement() ? List.of(p.replace(in)) : p.place(in);
                String kind = kinds.get(p.name());
                if ("seed".equals(kind) || "built-in".equals(kind)) {
                    regions = ZoneSpread.spread(regions, in, RANDOM_POLICIES.contains(p.name()));
                }
            }
        } catch (PlacementException e) {
            return refused(e.getMessage(), in);
        } catch (RuntimeException e) {
            return new Decision(null, "policy " + name + " failed: " + e);
        }
        String problem = check(name, regions, r.isReplacement() ? 1 : p.copies(), in);
        return problem == null ? new Decision(List.copyOf(regions), null) : refused(problem, in);
    }

    /** A refusal: INSUFFICIENT_STORAGE when room kept a region out ({@link PlacementInput#roomIsShort}), else UNAVAILABLE. */
    private static Decision refused(String why, PlacementInput in) {
        return new Decision(null, why, in.roomIsShort() ? FailureCode.INSUFFICIENT_STORAGE
                : FailureCode.UNAVAILABLE);
    }

    private static String check(String name, List<String> regions, int copies, PlacementInput in) {
        if (regions == null || regions.size() != copies) {
            return "policy " + name + " chose " + regions + ", not " + copies + " region" + (copies == 1 ? "" : "s");
        }
        if (new HashSet<>(regions).size() != regions.size()) {
            return "policy " + name + " chose a region twice: " + regions;
        }
        for (String region : regions) {
            String why = region == null ? "a null region" : in.whyNot(region);
            if (why != null) {
                return "policy " + name + " chose " + region + ", but " + why;
            }
        }
        return null;
    }

    private static final PlacementPolicy DEFAULT_REPLACEMENT = new PlacementPolicy() {
        @Override
        public String name() {
            return "nearest";
        }

        @Override
        public int copies() {
            return 1;
        }

        @Override
        public List<String> place(PlacementInput in) throws PlacementException {
            return List.of(replace(in));
        }
    };
}
