package geoblocks.node.host;

import geoblocks.blockstore.client.ClientPort;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.Positive;

/**
 * Lets plain threads use one client component: {@link #submit} triggers a request on its
 * ClientPort (Kompics ports accept events from any thread, as Netty's threads do) and completes a
 * future with the Result.
 */
public final class Bridge extends ComponentDefinition {
    private final Positive<ClientPort> port = requires(ClientPort.class);
    private final Map<Long, CompletableFuture<ClientPort.Result>> waiting = new ConcurrentHashMap<>();
    private final Map<Long, Consumer<ClientPort.Progress>> progress = new ConcurrentHashMap<>();

    public Bridge(BridgeInit init) {
        init.registered.complete(this);
        handle(port, ClientPort.Result.class, r -> {
            progress.remove(r.op());
            CompletableFuture<ClientPort.Result> f = waiting.remove(r.op());
            if (f != null) {
                f.complete(r);
            }
        });
        handle(port, ClientPort.Progress.class, p -> {
            Consumer<ClientPort.Progress> c = progress.get(p.op());
            if (c != null) {
                c.accept(p);
            }
        });
    }

    /** Sends a request with id {@code op}; the future completes with its result. */
    public CompletableFuture<ClientPort.Result> submit(long op, KompicsEvent request, Consumer<ClientPort.Progress> onProgress) {
        CompletableFuture<ClientPort.Result> f = new CompletableFuture<>();
        waiting.put(op, f);
        if (onProgress != null) {
            progress.put(op, onProgress);
        }
        trigger(request, port);
        return f;
    }

    public static final class BridgeInit extends Init<Bridge> {
        final CompletableFuture<Bridge> registered;

        public BridgeInit(CompletableFuture<Bridge> registered) {
            this.registered = registered;
        }
    }
}
