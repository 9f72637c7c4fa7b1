package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The two lanes of {@link OutboundQueue}, on an EmbeddedChannel whose writability the test sets. */
class OutboundQueueTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final OutboundQueue out = new OutboundQueue(channel, null, true);

    OutboundQueueTest() {
        channel.pipeline().addFirst("out", out);
    }

    /** The channel as if its socket were full (Netty's buffer past the high water mark), or drained. */
    private void writable(boolean yes) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, yes);
    }

    private List<Object> written() {
        channel.runPendingTasks();
        List<Object> w = new ArrayList<>();
        Object m;
        while ((m = channel.readOutbound()) != null) {
            w.add(m);
        }
        return w;
    }

    @Test
    void controlMessage_overtakesBlocksQueuedBehindABusySocket() {
        out.add("block-1");
        assertEquals(List.of("block-1"), written(), "a writable channel takes blocks at once");
        writable(false);
        out.add("block-2");
        out.add("block-3");
        out.add("block-4");
        assertEquals(List.of(), written(), "blocks wait while the socket is busy");
        assertEquals(3, out.orderedQueued());
        out.addControl("probe");
        out.addControl("ack");
        assertEquals(List.of("probe", "ack"), written(), "control leaves at once, in its order, ahead of the blocks");
        writable(true); // the socket drained: writability changed, the blocks follow in their order
        assertEquals(List.of("block-2", "block-3", "block-4"), written());
        assertEquals(0, out.orderedQueued());
    }

    @Test
    void oneDrain_writesControlBeforeTheBlocksQueuedEarlier() {
        out.add("block-1");
        out.add("block-2");
        out.addControl("manifest");
        assertEquals(List.of("manifest", "block-1", "block-2"), written());
    }

    @Test
    void withoutWritability_aDrainTakesOneBatch_controlFirst() {
        EmbeddedChannel udp2 = new EmbeddedChannel();
        List<List<Object>> b2 = new ArrayList<>();
        OutboundQueue q2 = new OutboundQueue(udp2, b2::add, false);
        for (int i = 0; i < OutboundQueue.DRAIN_BATCH + 10; i++) {
            q2.add("datagram-" + i);
        }
        q2.addControl("probe");
        udp2.runPendingTasks();
        assertEquals(List.of("probe"), b2.get(0), "control first");
        assertEquals(OutboundQueue.DRAIN_BATCH, b2.get(1).size(), "one batch of the ordered lane per drain");
        assertEquals("datagram-0", b2.get(1).get(0));
        assertEquals(List.of("datagram-" + OutboundQueue.DRAIN_BATCH), b2.get(2).subList(0, 1), "the rest next drain");
        assertEquals(10, b2.get(2).size());
    }

    @Test
    void withoutWritability_bothLanesDrainWhole_controlFirst() {
        EmbeddedChannel udp = new EmbeddedChannel();
        OutboundQueue q = new OutboundQueue(udp, null, false);
        udp.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        q.add("datagram-1");
        q.add("datagram-2");
        q.addControl("pong");
        udp.runPendingTasks();
        assertEquals("pong", udp.readOutbound());
        assertEquals("datagram-1", udp.readOutbound());
        assertEquals("datagram-2", udp.readOutbound());
        assertNull(udp.readOutbound());
    }

    /** A probe is stamped as it is sealed: it must reach the socket before the ordered batch behind it is sealed. */
    @Test
    void withoutWritability_controlIsFlushed_beforeTheOrderedBatchIsWritten() {
        EmbeddedChannel udp = new EmbeddedChannel();
        List<Object> flushedWhenBulkWritten = new ArrayList<>();
        OutboundQueue q = new OutboundQueue(udp, batch -> {
            if (batch.get(0).toString().startsWith("datagram")) {
                flushedWhenBulkWritten.addAll(udp.outboundMessages());
            }
            batch.forEach(o -> udp.write(o, udp.voidPromise()));
        }, false);
        q.add("datagram-1");
        q.addControl("probe");
        udp.runPendingTasks();
        assertEquals(List.of("probe"), flushedWhenBulkWritten, "the probe was on its way before the bulk was sealed");
        assertEquals("probe", udp.readOutbound());
        assertEquals("datagram-1", udp.readOutbound());
    }
}
