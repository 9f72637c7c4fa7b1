package geoblocks.app.load;

import picocli.CommandLine.Command;

/** Load test, SPEC.md experiment 9 (placeholder until it lands). */
@Command(name = "load", mixinStandardHelpOptions = true, description = "Load test (SPEC.md experiment 9).")
public final class LoadCommand implements Runnable {
    @Override
    public void run() {
        throw new IllegalStateException("load test not built yet");
    }
}
