package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The docs name only what exists: every class-like name in backticks in {@code docs/*.md} and the README
 * occurs in the sources (code, scripts, configs), every test class they name is declared, every
 * {@code scripts/} path they name exists, and every long flag they name appears in the sources. A name the
 * docs use for something outside this repository (an AWS condition key geoblocks does not support, a
 * botocore class, a JVM flag) is listed below with why. {@code docs/SPEC.md} is the brief's copy, not ours.
 */
class DocsReferencesTest {
    /** Names the docs use for things that are not in the sources, each for a stated reason. */
    static final Map<String, String> OUTSIDE = Map.ofEntries(
            Map.entry("HandshakeBench", "a measurement loop the benchmarks page says was not kept"),
            Map.entry("ManifestSync", "the op that consistency.md says was replaced"),
            Map.entry("MyPolicy", "an example class name in placement.md"),
            Map.entry("PrintCompilation", "a JVM flag"),
            Map.entry("HmacV1Auth", "a botocore class"),
            Map.entry("SigV4Auth", "a botocore class"),
            Map.entry("PrincipalOrgID", "an AWS condition key the gateway does not support"),
            Map.entry("PrincipalType", "an AWS condition key the gateway does not support"),
            Map.entry("RequestObjectTag", "an AWS condition key the gateway does not support"),
            Map.entry("SecureTransport", "an AWS condition key the gateway does not support"),
            Map.entry("SourceAccount", "an AWS condition key the gateway does not support"),
            Map.entry("SourceArn", "an AWS condition key the gateway does not support"),
            Map.entry("SourceVpc", "an AWS condition key the gateway does not support"),
            Map.entry("UserAgent", "an AWS condition key the gateway does not support"),
            Map.entry("PutBucketPublicAccessBlock", "an S3 operation named by the AWS docs' spelling"),
            Map.entry("WriteGetObjectResponse", "an S3 Object Lambda operation the gateway does not have"));
    /** Kompics' own network test, which ours follow. */
    static final Set<String> OUTSIDE_TESTS = Set.of("NetworkTest");
    /** The aws CLI's and curl's. */
    static final Set<String> OUTSIDE_FLAGS = Set.of("--ca-bundle", "--cacert");
    private static final Pattern TICKS = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern CAMEL = Pattern.compile("\\b([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)\\b");
    private static final Pattern TEST = Pattern.compile("\\b([A-Z]\\w*(?:Test|IT))\\b");
    private static final Pattern SCRIPT = Pattern.compile("\\b(scripts/[A-Za-z0-9_./-]*[A-Za-z0-9_])");
    private static final Pattern FLAG = Pattern.compile("(?<![\\w-])(--[a-z][a-z0-9-]+)");

    static Path root;
    static String sources;
    static Set<String> words = new HashSet<>();
    static Set<String> tests = new HashSet<>();
    static Map<Path, String> docs = new TreeMap<>();

    @BeforeAll
    static void read() throws IOException {
        root = Path.of("..").toAbsolutePath().normalize();
        assertTrue(Files.isDirectory(root.resolve("docs")), "run from a module directory of the repository: " + root);
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String rel = root.relativize(p).toString();
                // not this test: the names it lists as outside would count as inside
                if (!Files.isRegularFile(p) || rel.startsWith("docs/") || rel.startsWith(".") || rel.contains("/target/")
                        || p.getFileName().toString().equals("DocsReferencesTest.java")
                        || !rel.matches(".*\\.(java|sh|py|conf|xml|html|js|txt|in)$")) {
                    continue;
                }
                all.append(Files.readString(p, StandardCharsets.ISO_8859_1)).append('\n');
            }
        }
        sources = all.toString();
        Matcher w = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*").matcher(sources);
        while (w.find()) {
            words.add(w.group());
        }
        Matcher t = Pattern.compile("(?:class|record)\\s+(\\w+(?:Test|IT))\\b").matcher(sources);
        while (t.find()) {
            tests.add(t.group(1));
        }
        try (Stream<Path> md = Files.list(root.resolve("docs"))) {
            for (Path p : (Iterable<Path>) md::iterator) {
                if (p.toString().endsWith(".md") && !p.getFileName().toString().equals("SPEC.md")) {
                    docs.put(p, Files.readString(p, StandardCharsets.UTF_8));
                }
            }
        }
        docs.put(root.resolve("README.md"), Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8));
    }

    /** What {@code pattern} finds inside backticks of every doc, and fails {@code exists}: "name (doc)". */
    static Set<String> missing(Pattern pattern, Predicate<String> exists) {
        Set<String> out = new TreeSet<>();
        docs.forEach((doc, text) -> {
            Matcher ticks = TICKS.matcher(text);
            while (ticks.find()) {
                Matcher m = pattern.matcher(ticks.group(1));
                while (m.find()) {
                    if (!exists.test(m.group(1))) {
                        out.add(m.group(1) + " (" + root.relativize(doc) + ")");
                    }
                }
            }
        });
        return out;
    }

    @Test
    void everyClassLikeName_occursInTheSources() {
        assertEquals(Set.of(), missing(CAMEL, n -> words.contains(n) || OUTSIDE.containsKey(n)));
    }

    @Test
    void everyTestNamed_isATestClass() {
        assertEquals(Set.of(), missing(TEST, n -> tests.contains(n) || OUTSIDE_TESTS.contains(n)));
    }

    @Test
    void everyScriptPath_exists() {
        assertEquals(Set.of(), missing(SCRIPT, p -> Files.exists(root.resolve(p))));
    }

    @Test
    void everyLongFlag_appearsInTheSources() {
        assertEquals(Set.of(), missing(FLAG, f -> OUTSIDE_FLAGS.contains(f) || Pattern.compile(Pattern.quote(f)
                + "(?![a-z0-9-])").matcher(sources).find()));
    }

    @Test
    void theOutsideNames_areReallyOutside() {
        // a name listed as outside the sources that the sources now have leaves the list
        assertEquals(List.of(), OUTSIDE.keySet().stream().filter(words::contains).sorted().toList());
        assertEquals(List.of(), OUTSIDE_TESTS.stream().filter(tests::contains).toList());
    }
}
