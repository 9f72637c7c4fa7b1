package geoblocks.app.ledbat;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The LEDBAT test application: {@code ledbat server}, {@code ledbat client}, {@code ledbat plot}. */
@Command(name = "ledbat", mixinStandardHelpOptions = true,
        description = "LEDBAT (RFC 6817) test application: bulk transfer with checksum, throughput and CSV logs.",
        subcommands = {LedbatServerCommand.class, LedbatClientCommand.class, LedbatPlotCommand.class})
public final class LedbatCommand implements Runnable {
    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
