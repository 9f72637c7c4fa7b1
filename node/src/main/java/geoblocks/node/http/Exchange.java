package geoblocks.node.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * One request and its answer. The head is here when the route is called; the body, if the route
 * wants it, streams to a {@link BodySink} chunk by chunk (nothing buffers it whole), else it is
 * discarded. A route answers once: {@link #respond}. Used on the connection's event loop only.
 */
public final class Exchange {
    private final ChannelHandlerContext ctx;
    private final HttpRequest request;
    private final QueryStringDecoder uri;
    private final HttpRefusals refusals;
    private BodySink body;
    /** Set by whichever thread answers; read on the event loop (the idle check). */
    private volatile boolean answered;

    /** Receives the request body: each chunk (released by the server after the call), then its end. */
    public interface BodySink {
        void onChunk(ByteBuf chunk) throws Exception;

        void onEnd() throws Exception;

        /** The connection closed before the body ended (e.g. fewer bytes than its Content-Length): clean up. */
        default void onAbort() {}
    }

    Exchange(ChannelHandlerContext ctx, HttpRequest request, HttpRefusals refusals) {
        this.ctx = ctx;
        this.request = request;
        this.refusals = refusals;
        this.uri = new QueryStringDecoder(request.uri());
    }

    public HttpRequest request() {
        return request;
    }

    public String path() {
        return uri.path();
    }

    public Map<String, List<String>> query() {
        return uri.parameters();
    }

    /** Streams the request body to {@code sink}; call it from the route before returning. */
    public void onBody(BodySink sink) {
        this.body = sink;
    }

    public BodySink body() {
        return body;
    }

    public boolean answered() {
        return answered;
    }

    /** Answers with {@code status}, a content type and the whole body; keeps the connection when the client asked to. */
    public void respond(int status, String contentType, byte[] content) {
        boolean head = request.method().equals(HttpMethod.HEAD);
        ByteBuf buf = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(content);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status), buf);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, content.length);
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        send(status, r, true);
    }

    /**
     * Where every answer ends: refuses a second answer, counts the status, adds the headers set and
     * the connection's fate (kept alive unless the client or {@link #closeAfterAnswer} says close),
     * writes {@code r} in one flush and, when {@code complete} (nothing follows it), closes a
     * connection that is not kept alive once written. Returns whether the connection stays open.
     */
    private boolean send(int status, HttpResponse r, boolean complete) {
        if (answered) {
            throw new IllegalStateException("request " + request.method() + " " + request.uri() + " answered twice");
        }
        answered = true;
        count(status);
        extraHeaders.forEach((k, v) -> r.headers().set(k, v));
        boolean keepAlive = HttpUtil.isKeepAlive(request) && !closeAfter;
        r.headers().set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
        ChannelFuture written = ctx.writeAndFlush(r);
        if (complete && !keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
        return keepAlive;
    }

    private final Map<String, String> extraHeaders = new LinkedHashMap<>();

    /** Sets a response header; before {@link #respond}. */
    public Exchange header(String name, String value) {
        extraHeaders.put(name, value);
        return this;
    }

    /** The client's IP address as text, or null when the connection has none (not an IP socket). */
    public String clientIp() {
        return ctx.channel().remoteAddress() instanceof InetSocketAddress a && a.getAddress() != null
                ? a.getAddress().getHostAddress() : null;
    }

    /** The connection's context: for routes that stream an answer ({@link #respondHead}) or finish later. */
    public ChannelHandlerContext context() {
        return ctx;
    }

    /** Whether the client asked for {@code Expect: 100-continue} and has not been told to go on yet. */
    public boolean expectsContinue() {
        return HttpUtil.is100ContinueExpected(request) && !continued && !answered;
    }

    /** Tells a client that sent {@code Expect: 100-continue} to send its body; nothing for others. */
    public void sendContinue() {
        if (expectsContinue()) {
            continued = true;
            if (onContinue != null) {
                onContinue.run(); // the body's clock starts now: the wait for the route was not the client's
            }
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                    Unpooled.EMPTY_BUFFER));
        }
    }

    private boolean continued;
    private Runnable onContinue;
    private Consumer<String> bodyTimeoutAnswer = why -> respondText(408, "request body too slow: " + why + "\n");
    private boolean bodyTimedOut;

    /** Runs {@code r} when {@link #sendContinue} tells the client to send its body (the server's hook). */
    void onContinue(Runnable r) {
        this.onContinue = r;
    }

    /**
     * How to answer when the request body is too slow ({@link BodyDeadline}): {@code answer} gets the reason
     * and must {@link #respond}. The default is 408 with the reason as text. The server has already
     * aborted the body's sink and closes the connection after the answer.
     */
    public void onBodyTimeout(Consumer<String> answer) {
        this.bodyTimeoutAnswer = answer;
    }

    /**
     * The body came too slowly: answers as the route asked (counted as a body timeout, not by its status),
     * then closes the connection; when the request was answered already, only counts and closes.
     */
    void bodyTimedOut(String why) {
        bodyTimedOut = true;
        closeAfter = true;
        if (answered) {
            refusals.refused(HttpRefusals.BODY_TIMEOUT);
            ctx.close();
            return;
        }
        try {
            bodyTimeoutAnswer.accept(why);
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(Exchange.class).warn("HTTP {} {}: answering a slow body failed: {}",
                    request.method(), request.uri(), e.toString());
        }
        if (!answered) { // the route's answer did not answer: the connection closes all the same
            count(408);
            ctx.close();
        }
    }

    private void count(int status) {
        if (bodyTimedOut) {
            refusals.refused(HttpRefusals.BODY_TIMEOUT);
        } else {
            refusals.answered(status);
        }
    }

    /**
     * Answers with the status and headers only, announcing {@code contentLength} bytes that the route then
     * writes itself as {@code HttpContent} on {@link #context()}, ending with a {@code LastHttpContent}
     * (a HEAD answer carries no body: the route writes nothing more). Returns whether the connection
     * stays open afterwards.
     */
    public boolean respondHead(int status, long contentLength) {
        boolean head = request.method().equals(HttpMethod.HEAD);
        HttpResponse r = head
                ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status), Unpooled.EMPTY_BUFFER)
                : new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, contentLength);
        return send(status, r, head); // a HEAD answer is complete; any other's body follows from the route
    }

    /**
     * Answers with the status, the headers set and the whole of {@code content} in one write and one
     * flush (a small body: the client reads one segment, not a head and then a body). Not for HEAD.
     */
    public void respondWhole(int status, ByteBuf content) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status), content);
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        send(status, r, true);
    }

    private boolean closeAfter;

    /** Closes the connection after the answer (e.g. an answer sent before a body the client may still send). */
    public void closeAfterAnswer() {
        closeAfter = true;
    }

    public void respondText(int status, String text) {
        respond(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }
}
