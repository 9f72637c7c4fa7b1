package geoblocks.app.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One request and its answer. The head is here when the route is called; the body, if the route
 * wants it, streams to a {@link BodySink} chunk by chunk (nothing buffers it whole), else it is
 * discarded. A route answers once: {@link #respond}. Used on the connection's event loop only.
 */
public final class Exchange {
    private final ChannelHandlerContext ctx;
    private final HttpRequest request;
    private final QueryStringDecoder uri;
    private BodySink body;
    private boolean answered;

    /** Receives the request body: each chunk (released by the server after the call), then its end. */
    public interface BodySink {
        void onChunk(ByteBuf chunk) throws Exception;

        void onEnd() throws Exception;
    }

    Exchange(ChannelHandlerContext ctx, HttpRequest request) {
        this.ctx = ctx;
        this.request = request;
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

    BodySink body() {
        return body;
    }

    boolean answered() {
        return answered;
    }

    /** Answers with {@code status}, a content type and the whole body; keeps the connection when the client asked to. */
    public void respond(int status, String contentType, byte[] content) {
        if (answered) {
            throw new IllegalStateException("request " + request.method() + " " + request.uri() + " answered twice");
        }
        answered = true;
        boolean head = request.method().equals(HttpMethod.HEAD);
        ByteBuf buf = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(content);
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status), buf);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, content.length);
        r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        extraHeaders.forEach((k, v) -> r.headers().set(k, v));
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (keepAlive) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(r);
        } else {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private final Map<String, String> extraHeaders = new java.util.LinkedHashMap<>();

    /** Sets a response header; before {@link #respond}. */
    public Exchange header(String name, String value) {
        extraHeaders.put(name, value);
        return this;
    }

    public void respondText(int status, String text) {
        respond(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }
}
