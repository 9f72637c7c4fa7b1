package geoblocks.network.component;

import io.netty.channel.Channel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Write coalescing for one channel: any thread adds outgoing objects; one task on the channel's
 * event loop writes everything queued and flushes once. A burst of messages from the Kompics thread
 * becomes one flush (one writev for TCP, one sendmmsg for UDP on epoll) instead of one syscall per
 * message. The flag is cleared before draining, so an object added during a drain schedules the
 * next one and nothing waits unflushed.
 */
final class OutboundQueue {
    private final Channel channel;
    private final Queue<Object> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Consumer<Queue<Object>> writer;
    private final Runnable drain = this::drain;

    /** {@code writer} writes (not flushes) what it polls; null = write each object as is. */
    OutboundQueue(Channel channel, Consumer<Queue<Object>> writer) {
        this.channel = channel;
        this.writer = writer;
    }

    void add(Object msg) {
        queue.add(msg);
        if (scheduled.compareAndSet(false, true)) {
            channel.eventLoop().execute(drain);
        }
    }

    private void drain() {
        scheduled.set(false);
        if (writer != null) {
            writer.accept(queue);
        } else {
            Object m;
            while ((m = queue.poll()) != null) {
                channel.write(m, channel.voidPromise());
            }
        }
        channel.flush();
    }
}
