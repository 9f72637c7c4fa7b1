package geoblocks.network.component;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Write coalescing and priority for one channel, with two lanes. Any thread adds outgoing objects;
 * one task on the channel's event loop writes what is queued and flushes once, so a burst of
 * messages from the Kompics thread is one flush (one writev for TCP, one sendmmsg or GSO send for
 * UDP on epoll) instead of one syscall per message.
 *
 * <p>The control lane ({@link #addControl}: RTT probes, manifest publication, claims,
 * acknowledgements) is written first at every drain, whatever the channel's backlog. The ordered
 * lane ({@link #add}: blocks and everything else, in the order given) is written only while the
 * channel is writable (its unflushed bytes under Netty's high water mark) when {@code
 * respectWritability}; the rest waits here, and the drain resumes when the channel turns writable
 * again. So a control message waits behind at most the high water mark of blocks in Netty's buffer
 * plus the kernel's socket buffer, never behind the blocks queued here. Invariant: objects of one
 * lane leave in the order they were added; an ordered-lane object leaves after every control object
 * added before it. The flag is cleared before draining, so an object added during a drain schedules
 * the next one and nothing waits unflushed.
 *
 * <p>Also a handler: placed in the channel's pipeline it hears the writability changes.
 */
final class OutboundQueue extends ChannelInboundHandlerAdapter {
    private final Channel channel;
    private final Queue<Object> control = new ConcurrentLinkedQueue<>();
    private final Queue<Object> ordered = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Objects on the ordered lane (ConcurrentLinkedQueue.size() walks the queue). */
    private final AtomicInteger orderedCount = new AtomicInteger();
    private final Consumer<List<Object>> writer;
    private final boolean respectWritability;
    /** Most ordered-lane objects one drain takes without writability (UDP); the rest go in the next. */
    static final int DRAIN_BATCH = 512;
    private final Runnable drain = this::drain;

    /**
     * {@code writer} writes (not flushes) a batch of objects in order; null = write each object as
     * is. With {@code respectWritability}, the ordered lane waits while the channel is not writable
     * (TCP); without, every drain writes the control lane whole and then up to {@link #DRAIN_BATCH}
     * objects of the ordered lane (UDP, where the writer seals datagrams and batches them into GSO
     * sends), and schedules another drain for the rest, so control added meanwhile waits for at most
     * one batch; control written there is flushed before the ordered batch is written (sealing a batch
     * of 512 datagrams takes a while, and an RTT probe's time was stamped as it was sealed).
     */
    OutboundQueue(Channel channel, Consumer<List<Object>> writer, boolean respectWritability) {
        this.channel = channel;
        this.writer = writer;
        this.respectWritability = respectWritability;
    }

    /** Queues {@code msg} on the ordered lane. */
    void add(Object msg) {
        orderedCount.incrementAndGet();
        ordered.add(msg);
        schedule();
    }

    /** Queues {@code msg} on the control lane: written at the next drain, before the ordered lane. */
    void addControl(Object msg) {
        control.add(msg);
        schedule();
    }

    /** Objects waiting on the ordered lane (exact once concurrent adds and drains have finished). */
    int orderedQueued() {
        return orderedCount.get();
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            channel.eventLoop().execute(drain);
        }
    }

    private void drain() {
        scheduled.set(false);
        boolean wroteControl = write(control, Integer.MAX_VALUE) > 0;
        if (!respectWritability) {
            if (wroteControl && !ordered.isEmpty()) {
                channel.flush(); // control leaves now, not after the ordered batch is sealed (RTT probes are stamped when sealed)
            }
            write(ordered, DRAIN_BATCH);
            if (!ordered.isEmpty()) {
                schedule();
            }
        } else {
            Object m;
            while (channel.isWritable() && (m = ordered.poll()) != null) {
                orderedCount.decrementAndGet();
                channel.write(m, channel.voidPromise());
            }
        }
        channel.flush();
    }

    /** Writes up to {@code most} objects of {@code q}; returns how many. */
    private int write(Queue<Object> q, int most) {
        if (writer != null) {
            List<Object> batch = new ArrayList<>(Math.min(most, 64));
            Object m;
            while (batch.size() < most && (m = q.poll()) != null) {
                batch.add(m);
            }
            if (q == ordered) {
                orderedCount.addAndGet(-batch.size());
            }
            if (!batch.isEmpty()) {
                writer.accept(batch);
            }
            return batch.size();
        }
        Object m;
        int n = 0;
        for (; n < most && (m = q.poll()) != null; n++) {
            if (q == ordered) {
                orderedCount.decrementAndGet();
            }
            channel.write(m, channel.voidPromise());
        }
        return n;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable() && !ordered.isEmpty()) {
            schedule();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        release(control);
        release(ordered);
        super.channelInactive(ctx);
    }

    private void release(Queue<Object> q) {
        Object m;
        while ((m = q.poll()) != null) {
            if (q == ordered) {
                orderedCount.decrementAndGet();
            }
            ReferenceCountUtil.release(m);
        }
    }
}
