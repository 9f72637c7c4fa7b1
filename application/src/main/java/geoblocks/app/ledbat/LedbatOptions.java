package geoblocks.app.ledbat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import geoblocks.app.cli.NetworkOption;
import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.ledbat.wire.LedbatCodec;
import geoblocks.net.netty.CodecSerializer;
import geoblocks.network.NetworkSettings;
import geoblocks.network.session.NodeIdentity;
import geoblocks.node.Sizes;
import geoblocks.node.host.NetworkChoice;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** Options shared by {@code ledbat server} and {@code ledbat client}. */
final class LedbatOptions {
    /** Events a component may run per scheduling (Kompics defaults to 1; batching cuts scheduler overhead). */
    static final int KOMPICS_BATCH = 32;

    @Option(names = "--target", paramLabel = "MS", description = "LEDBAT TARGET queuing delay in ms (RFC 6817: <= 100; default from reference.conf: 100).")
    Integer targetMs;

    @Option(names = "--mode", paramLabel = "MODE", description = "rfc6817 (default) or ledbat++.")
    String mode;

    @Option(names = "--gain-decrease", paramLabel = "G", description = "GAIN applied above target (default 1 = RFC).")
    Double gainDecrease;

    @Option(names = "--udp-buffer", paramLabel = "SIZE", defaultValue = "4MiB",
            description = "SO_RCVBUF/SO_SNDBUF of the UDP socket (capped by net.core.rmem_max/wmem_max; default ${DEFAULT-VALUE}).")
    String udpBuffer;

    @CommandLine.Mixin
    NetworkOption network = new NetworkOption();

    @Option(names = "--security", defaultValue = "auto",
            description = "With --network geoblocks: tls, auth or auto (auth on loopback, tls otherwise; default ${DEFAULT-VALUE}).")
    String security;

    @Option(names = "--verbose", description = "Print socket buffer sizes and other details on stderr.")
    boolean verbose;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "1",
            description = "Kompics worker threads (default ${DEFAULT-VALUE}: the transport and its driver on one thread, "
                    + "the network's event loop on another; a second worker adds hand-offs between them).")
    int workers;

    /** The worker count, checked. */
    int workers() {
        if (workers < 1 || workers > 64) {
            throw new IllegalArgumentException("--workers must be 1..64, was " + workers);
        }
        return workers;
    }

    LedbatSettings settings() {
        Map<String, Object> over = new HashMap<>();
        // --parallel streams of the test application share the flow in turn (the node's block
        // streams go oldest first: stream-scheduling = fifo)
        over.put("stream-scheduling", "round-robin");
        if (targetMs != null) {
            over.put("target-ms", targetMs);
        }
        if (mode != null) {
            over.put("mode", mode);
        }
        if (gainDecrease != null) {
            over.put("gain-decrease", gainDecrease);
        }
        Config base = ConfigFactory.load();
        Config merged = ConfigFactory.parseMap(over).atPath(LedbatSettings.NAMESPACE).withFallback(base);
        return LedbatSettings.from(merged);
    }

    int udpBufferBytes() {
        long b = Sizes.parse(udpBuffer);
        if (b < 4096 || b > (1L << 30)) {
            throw new IllegalArgumentException("--udp-buffer must be between 4KiB and 1GiB, was " + udpBuffer);
        }
        return (int) b;
    }

    /** The network both ends use; they must agree on it, the security mode and geoblocks.cluster.secret. */
    NetworkChoice network() {
        Config c = ConfigFactory.parseMap(Map.of("implementation", network.name, "security", security,
                "udp-buffer", udpBufferBytes())).atPath("geoblocks.network").withFallback(ConfigFactory.load());
        return new NetworkChoice(NetworkSettings.from(c),
                c.getString("geoblocks.cluster.secret"), NodeIdentity.NONE);
    }

    static void registerCodec() {
        CodecSerializer.register(LedbatCodec.INSTANCE, LedbatCodec.SERIALIZER_ID, "ledbat");
    }
}
