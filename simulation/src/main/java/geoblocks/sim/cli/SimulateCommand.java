package geoblocks.sim.cli;

import picocli.CommandLine.Command;

/** Simulator scenarios (placeholder until the simulation issue lands). */
@Command(name = "simulate", mixinStandardHelpOptions = true, description = "Run a simulator scenario.")
public final class SimulateCommand implements Runnable {
    @Override
    public void run() {
        throw new IllegalStateException("no simulator scenarios yet");
    }
}
