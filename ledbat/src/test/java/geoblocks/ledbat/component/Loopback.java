package geoblocks.ledbat.component;

import geoblocks.ledbat.core.LedbatSettings;
import geoblocks.ledbat.wire.LedbatCodec;
import geoblocks.net.NetAddress;
import geoblocks.net.netty.CodecSerializer;
import java.io.IOException;
import java.net.DatagramSocket;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import se.sics.kompics.Kompics;

/** Runs a {@link LoopbackHost} transfer in this JVM (one per test class: the runtime is global). */
final class Loopback {
    private Loopback() {}

    static int freePort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0)) {
            return s.getLocalPort();
        }
    }

    static NetAddress[] addresses() throws IOException {
        return new NetAddress[] {NetAddress.of("127.0.0.1", freePort()), NetAddress.of("127.0.0.1", freePort())};
    }

    /** Starts the transfer and returns its result once every stream closed on both sides or the timeout hit. */
    static TransferResult run(NetAddress[] ab, LossyShim.ShimInit shim, int streams, long bytes, long timeoutSeconds,
            Map<String, ?> overrides) throws InterruptedException {
        return run(ab, shim, streams, bytes, timeoutSeconds, overrides, r -> { });
    }

    /** As above; {@code whileRunning} runs in the calling thread once started, before waiting for the result. */
    static TransferResult run(NetAddress[] ab, LossyShim.ShimInit shim, int streams, long bytes, long timeoutSeconds,
            Map<String, ?> overrides, Consumer<TransferResult> whileRunning) throws InterruptedException {
        CodecSerializer.register(LedbatCodec.INSTANCE, LedbatCodec.SERIALIZER_ID, "ledbat");
        // no overrides: the components read geoblocks.ledbat from their Kompics config (reference.conf)
        LedbatSettings settings = overrides.isEmpty() ? null : LedbatSettings.defaults(overrides);
        TransferResult result = new TransferResult(streams);
        Kompics.createAndStart(LoopbackHost.class,
                new LoopbackHost.HostInit(ab[0], ab[1], settings, shim, streams, bytes, result), 2,
                Integer.getInteger("kompics.batch", 1));
        try {
            whileRunning.accept(result);
            result.done.await(timeoutSeconds, TimeUnit.SECONDS);
        } finally {
            Kompics.shutdown();
        }
        return result;
    }
}
