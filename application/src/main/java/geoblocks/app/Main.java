package geoblocks.app;

import geoblocks.app.cli.BenchCommand;
import geoblocks.app.cli.DemoCommand;
import geoblocks.app.cli.PlotSeriesCommand;
import geoblocks.app.ledbat.LedbatCommand;
import geoblocks.app.probe.ProbeCommand;
import geoblocks.app.warm.TrainCommand;
import geoblocks.network.NettyMemory;
import geoblocks.node.BuildVersion;
import geoblocks.node.ExitCodes;
import geoblocks.node.cli.ClientCommand;
import geoblocks.node.cli.ServerCommand;
import geoblocks.sim.cli.SimulateCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of node.jar: dispatches to the server, client, demo, bench, train, ledbat and simulate commands. */
@Command(name = "node.jar", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "geoblocks: a geo-distributed block store on Kompics, with a LEDBAT transport.",
        subcommands = {ServerCommand.class, ClientCommand.class, DemoCommand.class, BenchCommand.class, LedbatCommand.class,
                SimulateCommand.class, PlotSeriesCommand.class, ProbeCommand.class, TrainCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        NettyMemory.beforeNetty();
        if (args.length > 0 && !args[0].equals("server") && System.getProperty("kompics.log") == null) {
            // client-side commands report failures in their own words; Netty's connect
            // errors (with stack traces) would only repeat them
            System.setProperty("kompics.log", "OFF");
        }
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (usage errors: 2, a node's failure: {@link ExitCodes}, others: 1). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        cl.setParameterExceptionHandler((e, parsed) -> {
            // one line, as for every other error; the command's --help has the usage
            CommandLine cmd = e.getCommandLine();
            cmd.getErr().println("error: " + e.getMessage() + " (see " + cmd.getCommandSpec().qualifiedName() + " --help)");
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            if (System.getenv("GEOBLOCKS_TRACE") != null) {
                e.printStackTrace(cmd.getErr()); // GEOBLOCKS_TRACE=1: where it was thrown
            }
            return ExitCodes.of(e);
        });
        return cl.execute(args);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
