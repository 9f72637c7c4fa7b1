package geoblocks.sim.harness;

import ch.qos.logback.classic.Level;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Fault;
import se.sics.kompics.Kompics;
import se.sics.kompics.simulator.SimulationScenario;
import se.sics.kompics.simulator.result.SimulationResultSingleton;
import se.sics.kompics.simulator.run.LauncherComp;

/**
 * Entry point run by the simulator inside its instrumenting class loader. The seed must be set
 * here, not before {@code simulate()}: the loader has its own copy of {@link SimulationScenario}
 * (see shared/KOMPICS.md). Reads the seed from the stored scenario's plan, quiets logging (the
 * simulator logs every message at DEBUG), records component faults for the caller and runs the
 * simulation to its end on this thread. Extends ComponentDefinition only to satisfy
 * {@code simulate(Class)}.
 */
public final class SeededLauncher extends ComponentDefinition {
    public static void main(String[] args) {
        PlanScenario scenario = (PlanScenario) SimulationScenario.load(System.getProperty("scenario"));
        SimulationScenario.setSeed(scenario.plan().seed());
        quietLogging();
        Kompics.setFaultHandler(SeededLauncher::onFault);
        Kompics.setScheduler(LauncherComp.simulatorScheduler);
        Kompics.createAndStart(LauncherComp.class, 1);
    }

    @SuppressWarnings("unchecked")
    private static Fault.ResolveAction onFault(Fault f) {
        Throwable c = f.getCause();
        List<String> faults = SimulationResultSingleton.getInstance().get(ResultKeys.FAULTS, List.class);
        if (faults != null) {
            faults.add(c + " in " + f.getSource().getClass().getSimpleName());
        }
        System.err.println("fault in simulated component: " + c);
        c.printStackTrace(System.err);
        return Fault.ResolveAction.DESTROY;
    }

    private static void quietLogging() {
        if (Boolean.getBoolean("geoblocks.sim.verbose")) {
            return;
        }
        Logger root = LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        if (root instanceof ch.qos.logback.classic.Logger l) {
            l.setLevel(Level.WARN);
        }
    }
}
