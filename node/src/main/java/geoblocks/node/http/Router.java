package geoblocks.node.http;

import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Maps a method and a path to a {@link Route}: exact paths, or a prefix ending in {@code /*}
 * (longest prefix wins), each marked as needing authentication or not. A path known for other
 * methods only is a 405, an unknown path a 404. Build it first, then share it read-only.
 */
public final class Router {
    private final Map<String, Map<String, Entry>> exact = new LinkedHashMap<>();
    private final Map<String, Map<String, Entry>> prefixes = new LinkedHashMap<>();

    /** One route and whether it requires the HTTP Basic credentials. */
    public record Entry(Route route, boolean authenticated) {}

    /** The outcome of a lookup: an entry, or the status to answer (404, 405) with the allowed methods. */
    public record Match(Entry entry, int status, List<String> allowed) {}

    /** Adds {@code route} for {@code method} at {@code path} ("/x" exactly, or "/x/*" for everything under /x/). */
    public Router add(String method, String path, boolean authenticated, Route route) {
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("a route path starts with '/': " + path);
        }
        Map<String, Map<String, Entry>> table = path.endsWith("/*") ? prefixes : exact;
        String key = path.endsWith("/*") ? path.substring(0, path.length() - 1) : path;
        if (table.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(method, new Entry(route, authenticated)) != null) {
            throw new IllegalArgumentException("route " + method + " " + path + " added twice");
        }
        return this;
    }

    private Predicate<HttpRequest> overrideWhen;
    private Route override;

    /**
     * Sends every request that {@code when} picks to {@code route}, whatever its method and path, without
     * the Basic credentials (the route authenticates it): how S3-signed requests reach the gateway even at
     * paths the operator's routes use.
     */
    public Router override(Predicate<HttpRequest> when, Route route) {
        if (override != null) {
            throw new IllegalArgumentException("the router already has an override route");
        }
        this.overrideWhen = when;
        this.override = route;
        return this;
    }

    /** The route for a request: the override when it picks the request, else by method and path. */
    public Match find(HttpRequest req) {
        if (override != null && overrideWhen.test(req)) {
            return new Match(new Entry(override, false), 200, List.of());
        }
        return find(req.method().name(), new QueryStringDecoder(req.uri()).path());
    }

    public Match find(String method, String path) {
        Map<String, Entry> byMethod = exact.get(path);
        if (byMethod == null) {
            String best = null;
            for (String p : prefixes.keySet()) {
                if (path.startsWith(p) && (best == null || p.length() > best.length())) {
                    best = p;
                }
            }
            byMethod = best == null ? null : prefixes.get(best);
        }
        if (byMethod == null) {
            return new Match(null, 404, List.of());
        }
        Entry e = byMethod.get(method);
        if (e == null && method.equals("HEAD")) {
            e = byMethod.get("GET");
        }
        return e != null ? new Match(e, 200, List.of()) : new Match(null, 405, new ArrayList<>(byMethod.keySet()));
    }
}
