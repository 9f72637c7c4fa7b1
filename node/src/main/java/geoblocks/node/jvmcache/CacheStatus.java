package geoblocks.node.jvmcache;

import java.util.List;

/**
 * The line a server prints at start about its class cache: whether it starts from one (as the JVM's
 * options and its {@code java.vm.info}, which says "sharing" once an archive is mapped, tell), whether
 * the JVM refused the one it was given and why, or where a cache for this jar and JVM waits to be named.
 * Pure: the caller gathers the facts.
 */
public final class CacheStatus {
    private CacheStatus() {}

    /** How a cache named in the options fits this jar and JVM, by its stamp. */
    public sealed interface Fit {}

    /** Its stamp names this jar and JVM. */
    public record Fits() implements Fit {}

    /** It has no readable stamp (not made by {@code train}): {@code why}. */
    public record Unknown(String why) implements Fit {}

    /** Its stamp names another jar or JVM: {@code why}. */
    public record Misfit(String why) implements Fit {}

    /** The status line ({@code text} begins with "JVM: "), and whether it warns (the JVM refused a cache, or a cache does not fit). */
    public record Line(boolean warning, String text) {
        /** As the server prints it: {@code geoblocks node seoul JVM: ...}, or prefixed by {@code warning: }. */
        public String forNode(String region) {
            return (warning ? "warning: " : "") + "geoblocks node " + region + " " + text;
        }
    }

    /**
     * The status: {@code options} the JVM's input arguments, {@code sharing} whether it mapped a class
     * archive, {@code kind} the kind this JVM makes, {@code fit} how the named cache fits (ignored when none
     * is named), {@code beside} the choice of the cache in the default place (beside the jar; null: none looked for), told when
     * none is named.
     */
    public static Line describe(List<String> options, boolean sharing, CacheKind kind, Fit fit, CacheChoice.Choice beside) {
        String recording = options.stream().filter(CacheKind::records).map(CacheKind::cacheIn).filter(f -> f != null)
                .findFirst().orElse(null);
        if (recording != null) {
            return new Line(false, "JVM: a training run, writing its " + kind.label() + " to " + recording + " as it exits");
        }
        String named = options.stream().map(CacheKind::cacheIn).filter(f -> f != null).reduce((a, b) -> b).orElse(null);
        if (named == null) {
            if (beside instanceof CacheChoice.Use use) {
                return new Line(false, "JVM: starts cold; a " + kind.label() + " for this jar and JVM is at " + use.cache()
                        + ": add " + String.join(" ", use.options()) + " before -jar to start warm");
            }
            if (beside instanceof CacheChoice.PassOver p) {
                return new Line(false, "JVM: starts cold; the " + kind.label() + " " + p.cache() + " does not fit: " + p.why()
                        + " (java -jar node.jar train makes a new one)");
            }
            return new Line(false, "JVM: starts cold, with no " + kind.label() + " (java -jar node.jar train makes one)");
        }
        String again = "; this start is cold: java -jar node.jar train makes a new one";
        if (!sharing) {
            return new Line(true, "JVM: the " + kind.label() + " " + named + " was refused by the JVM"
                    + (fit instanceof Misfit m ? ": " + m.why() : " (its [aot] or [cds] lines above say why)") + again);
        }
        if (kind == CacheKind.AOT) {
            return new Line(false, "JVM: starts from the AOT cache " + named + " (mapped)");
        }
        // a dynamic CDS archive refused still leaves the JDK's own archive mapped: "sharing" does not tell, the stamp does
        if (fit instanceof Misfit m) {
            return new Line(true, "JVM: the CDS archive " + named + " does not fit: " + m.why() + "; the JVM starts without it"
                    + again);
        }
        if (fit instanceof Unknown u) {
            return new Line(false, "JVM: starts from the CDS archive " + named
                    + " unless the JVM warned above that it refused it (" + u.why() + ")");
        }
        return new Line(false, "JVM: starts from the CDS archive " + named + ", made for this jar and JVM");
    }
}
