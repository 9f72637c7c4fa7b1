package geoblocks.app.http;

/**
 * What serves one method and path of the {@link HttpServer}: called on the connection's event
 * loop with the request head once it arrives; it answers through the {@link Exchange} (now or
 * later) and may take the request body as it streams in with {@link Exchange#onBody}. It must not
 * block. An exception it throws becomes a 500 answer; the server keeps running.
 */
@FunctionalInterface
public interface Route {
    void handle(Exchange exchange) throws Exception;
}
