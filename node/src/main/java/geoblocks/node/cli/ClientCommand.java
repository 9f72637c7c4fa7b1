package geoblocks.node.cli;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.node.AdminClient;
import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code client --at REGION <command>}: talks to the node of one region. */
@Command(name = "client", mixinStandardHelpOptions = true,
        description = "Upload, download, list, inspect and delete files through the node of one region.",
        subcommands = {ClientOps.Put.class, ClientOps.Get.class, ClientOps.Ls.class, ClientOps.Stat.class,
            ClientOps.Versions.class, ClientOps.Rm.class, ClientOps.Move.class, ClientOps.Status.class,
            ClientOps.Policies.class, ClusterOps.class, KeyCommand.class, TokenCommand.class})
public final class ClientCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--at", required = true, paramLabel = "REGION", description = "Region whose node serves the request.")
    String at;

    @Option(names = "--config", paramLabel = "FILE", description = "HOCON cluster config (default: built-in local cluster).")
    Path config;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "10000",
            description = "Fail when the node is silent this long (default: ${DEFAULT-VALUE} ms).")
    long timeoutMs;

    @Option(names = "--no-retry",
            description = "Fail at once when the node refuses as busy (default: send the request again up to"
                    + " geoblocks.client.busy-retries times, after a jittered exponential backoff).")
    boolean noRetry;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing command: put, get, ls, stat, versions, rm, move, status, policies, cluster, key or token");
    }

    /** The client of the admin API of the node of {@code --at} (cluster changes, moves, tokens). */
    AdminClient admin() {
        return AdminClient.of(AppConfig.load(config), at, timeoutMs);
    }

    /**
     * Starts a client; the caller closes it. Validates --at against the config and checks that the
     * node accepts connections (Kompics' Netty only logs a refused connection, so without this a
     * missing node would surface as a timeout).
     */
    GeoClient open() {
        AppConfig cfg = AppConfig.load(config);
        if (noRetry) {
            cfg = new AppConfig(ConfigFactory.parseMap(Map.of("geoblocks.client.busy-retries", 0))
                    .withFallback(cfg.config()), cfg.cluster(), cfg.node(), cfg.network());
        }
        NetAddress node = cfg.cluster().address(at);
        try (Socket s = new Socket()) {
            s.connect(node.asSocket(), (int) Math.min(timeoutMs, 5000));
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach node " + at + " at " + node + " (" + e.getMessage()
                    + "); is it running?");
        }
        return GeoClient.start(cfg, timeoutMs);
    }
}
