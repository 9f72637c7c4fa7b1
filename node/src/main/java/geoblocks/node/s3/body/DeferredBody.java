package geoblocks.node.s3.body;

import geoblocks.node.http.Exchange;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds a request's body while the gateway looks something up before it dispatches (an access key
 * not yet cached, a permission): the connection stops reading ({@code autoRead} off), so only the
 * bytes already read with the head are kept here; {@link #resume} hands them to the sink the
 * operation registered (or drops them when it registered none) and reads on. Event loop only.
 */
public final class DeferredBody implements Exchange.BodySink {
    private final Exchange ex;
    private final List<byte[]> chunks = new ArrayList<>();
    private boolean ended;
    private boolean aborted;
    private boolean resumed;

    private DeferredBody(Exchange ex) {
        this.ex = ex;
    }

    /** Defers the body of {@code ex}. */
    public static DeferredBody install(Exchange ex) {
        DeferredBody d = new DeferredBody(ex);
        ex.onBody(d);
        ex.context().channel().config().setAutoRead(false);
        return d;
    }

    @Override
    public void onChunk(ByteBuf chunk) {
        byte[] b = new byte[chunk.readableBytes()];
        chunk.getBytes(chunk.readerIndex(), b);
        chunks.add(b);
    }

    @Override
    public void onEnd() {
        ended = true;
    }

    @Override
    public void onAbort() {
        aborted = true;
    }

    /** After the operation was dispatched: replays what was held to its sink and reads on. */
    public void resume() {
        if (resumed) {
            return;
        }
        resumed = true;
        Exchange.BodySink sink = ex.body();
        ex.context().channel().config().setAutoRead(true);
        if (sink == this) {
            ex.onBody(null); // the operation wants no body (e.g. it answered an error): dropped
            chunks.clear();
            return;
        }
        if (sink == null) {
            chunks.clear();
            return;
        }
        try {
            if (aborted) {
                sink.onAbort();
                return;
            }
            for (byte[] b : chunks) {
                ByteBuf buf = Unpooled.wrappedBuffer(b);
                sink.onChunk(buf);
            }
            chunks.clear();
            if (ended) {
                sink.onEnd();
            }
        } catch (Exception e) {
            ex.onBody(null);
            if (!ex.answered()) {
                ex.closeAfterAnswer();
                ex.respondText(500, "internal error: " + e + "\n");
            }
        }
    }
}
