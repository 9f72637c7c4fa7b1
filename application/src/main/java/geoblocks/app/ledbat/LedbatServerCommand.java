package geoblocks.app.ledbat;

import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.net.NetAddress;
import geoblocks.node.host.NetworkChoice;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import se.sics.kompics.Init;
import se.sics.kompics.Kompics;

/** {@code ledbat server}: receives LEDBAT streams, checksums them and reports back to each client. */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = "Receive LEDBAT streams; report bytes and CRC32C of each back to its client. Runs until killed.")
public final class LedbatServerCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "7400", description = "UDP port (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1",
            description = "IP to listen on; clients must send to this address (default ${DEFAULT-VALUE}).")
    String bind;

    @Mixin
    LedbatOptions options = new LedbatOptions();

    @Override
    public Integer call() throws Exception {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--port must be in 1..65535, was " + port);
        }
        int workers = options.workers();
        NetAddress self = NetAddress.of(bind, port);
        if (self.getIp().isAnyLocalAddress()) {
            throw new IllegalArgumentException("--bind needs the concrete IP clients send to, not " + bind);
        }
        LedbatSettings settings = options.settings();
        LedbatOptions.registerCodec();
        NetworkChoice net = options.network();
        Kompics.createAndStart(LedbatHost.class, new LedbatHost.HostInit(self, settings, options.udpBufferBytes(),
                ServerDriver.class, Init.NONE, false, options.verbose, net), workers, LedbatOptions.KOMPICS_BATCH);
        System.out.println("ledbat server listening on " + self + " (UDP, network " + net.describe(self) + ")");
        Kompics.waitForTermination();
        return 0;
    }
}
