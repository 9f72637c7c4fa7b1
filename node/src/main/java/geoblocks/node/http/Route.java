package geoblocks.node.http;

/**
 * What serves one method and path of the {@link HttpServer}: called on the connection's event
 * loop with the request head once it arrives; it answers through the {@link Exchange} (now or
 * later) and may take the request body as it streams in with {@link Exchange#onBody}. It must not
 * block. An exception it throws becomes a 500 answer; the server keeps running.
 */
@FunctionalInterface
public interface Route {
    void handle(Exchange exchange) throws Exception;

    /**
     * Answers a request that would come here but whose head the codec could not parse, e.g. a
     * Content-Length that is not a number (the connection closes after the answer; oversized heads are
     * answered 431 by the server instead): by default 400 with the reason as text.
     */
    default void malformed(Exchange exchange, Throwable why) {
        exchange.respondText(400, "bad request: " + why.getMessage() + "\n");
    }
}
