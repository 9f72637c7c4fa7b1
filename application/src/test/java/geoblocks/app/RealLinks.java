package geoblocks.app;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * What the script-driven ITs share (MtuRealLinkIT, NatRealLinkIT, Ipv6RealLinkIT, PowerLossIT): the node.jar under test, the scripts they
 * run, and the assumptions that let them run (root, network namespaces), each skipping the test with why.
 */
final class RealLinks {
    private RealLinks() {}

    /** The node.jar the build made (geoblocks.nodeJar), or the test is skipped. */
    static Path nodeJar() {
        String nodeJar = System.getProperty("geoblocks.nodeJar");
        assumeTrue(nodeJar != null && Files.isRegularFile(Path.of(nodeJar)), "no node.jar (geoblocks.nodeJar) to run");
        return Path.of(nodeJar);
    }

    /** The repository's {@code scripts/NAME}, or the test is skipped. */
    static Path script(String name) {
        Path script = Path.of("").toAbsolutePath().getParent().resolve("scripts").resolve(name);
        assumeTrue(Files.isExecutable(script), "scripts/" + name + " not found at " + script);
        return script;
    }

    /** Skips the test unless it runs as root on a machine where it can make network namespaces (and has {@code tools}). */
    static void assumeNamespaces(String tools) throws IOException, InterruptedException {
        assumeTrue("0".equals(run("id", "-u").trim()), "needs root to create network namespaces");
        String ns = "gb-check-" + ProcessHandle.current().pid();
        String out = run("sh", "-c", "command -v " + tools + " >/dev/null && ip netns add " + ns + " && ip netns del " + ns
                + " && echo ok");
        assumeTrue(out.trim().endsWith("ok"), "cannot create a network namespace here (" + tools + "): " + out.trim());
    }

    /**
     * Runs {@code script} with {@code env} (JAR set to the node.jar), its output in {@code out}/script.out, and
     * returns its RESULT line once it ended within {@code timeoutS} with exit status 0 (else the test fails
     * with the log).
     */
    static String runScript(Path script, Map<String, String> env, Path out, int timeoutS) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(script.toString()).redirectErrorStream(true)
                .redirectOutput(out.resolve("script.out").toFile());
        pb.environment().put("JAR", nodeJar().toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        Assertions.assertTrue(p.waitFor(timeoutS, TimeUnit.SECONDS),
                "the script did not end within " + timeoutS + " s; see " + out);
        String log = Files.readString(out.resolve("script.out"));
        String result = log.lines().filter(l -> l.startsWith("RESULT")).findFirst().orElse("(no RESULT line)");
        Assertions.assertEquals(0, p.exitValue(), result + "\n" + log);
        return result;
    }

    /** Runs {@code cmd}, waiting up to 5 minutes; its output and errors. */
    static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(300, TimeUnit.SECONDS);
        return out;
    }
}
