package geoblocks.app.ledbat;

import picocli.CommandLine.Command;

/** LEDBAT test application (placeholder until the LEDBAT issue lands). */
@Command(name = "ledbat", mixinStandardHelpOptions = true, description = "LEDBAT test application.")
public final class LedbatCommand implements Runnable {
    @Override
    public void run() {
        throw new IllegalStateException("ledbat test application not built yet");
    }
}
