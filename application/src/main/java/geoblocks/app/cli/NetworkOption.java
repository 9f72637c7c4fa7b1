package geoblocks.app.cli;

import picocli.CommandLine.Option;

/**
 * The {@code --network} option (a picocli mixin) of the commands that start their own nodes or
 * endpoints: bench, bench load, ledbat server and client.
 */
public final class NetworkOption {
    @Option(names = "--network", defaultValue = "geoblocks", paramLabel = "NAME",
            description = "Network component of every node and client it starts: geoblocks (ours) or kompics-netty"
                    + " (Kompics' NettyNetwork) (default: ${DEFAULT-VALUE}).")
    public String name;

    /** The line that selects it in a generated cluster config. */
    public String config() {
        return "geoblocks.network.implementation = " + name;
    }
}
