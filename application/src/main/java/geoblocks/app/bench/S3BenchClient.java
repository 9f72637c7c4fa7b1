package geoblocks.app.bench;

import geoblocks.app.s3.S3Signer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * A small S3 client for benchmarks (path-style, SigV4 with a signed payload, HTTP/1.1 keep-alive):
 * the same client against geoblocks and against any other S3 store, so their figures compare.
 * Retries nothing: a failed request is counted by the caller.
 */
final class S3BenchClient {
    private static final String EMPTY_SHA = S3Signer.payloadHash(new byte[0]);
    private final HttpClient http;
    private final URI endpoint;
    private final String host;
    private final S3Signer signer;

    S3BenchClient(URI endpoint, String accessKey, String secret, String region) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        this.endpoint = endpoint;
        this.host = endpoint.getHost() + (endpoint.getPort() > 0 ? ":" + endpoint.getPort() : "");
        this.signer = new S3Signer(accessKey, secret, region);
    }

    static String path(String bucket, String key) {
        StringJoiner j = new StringJoiner("/", "/" + S3Signer.encode(bucket) + (key == null ? "" : "/"), "");
        if (key != null) {
            Arrays.stream(key.split("/", -1)).map(S3Signer::encode).forEach(j::add);
        }
        return j.toString();
    }

    private HttpResponse<byte[]> send(String method, String rawPath, Map<String, String> query, byte[] body)
            throws IOException {
        String hash = body.length == 0 ? EMPTY_SHA : S3Signer.payloadHash(body);
        String q = query.entrySet().stream().map(e -> S3Signer.encode(e.getKey()) + "=" + S3Signer.encode(e.getValue()))
                .collect(Collectors.joining("&"));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint.getScheme() + "://" + host + rawPath
                + (q.isEmpty() ? "" : "?" + q))).timeout(Duration.ofSeconds(60))
                .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        signer.sign(method, host, rawPath, query, hash, Instant.now()).forEach(b::header);
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    private static void check(HttpResponse<byte[]> r, String what) throws IOException {
        if (r.statusCode() / 100 != 2) {
            String body = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
            throw new IOException(what + ": HTTP " + r.statusCode() + " " + body.substring(0, Math.min(300, body.length())));
        }
    }

    void createBucket(String bucket) throws IOException {
        HttpResponse<byte[]> r = send("PUT", path(bucket, null), Map.of(), new byte[0]);
        if (r.statusCode() != 409) { // already there: fine for a benchmark
            check(r, "CreateBucket " + bucket);
        }
    }

    void put(String bucket, String key, byte[] body) throws IOException {
        check(send("PUT", path(bucket, key), Map.of(), body), "PutObject " + key);
    }

    byte[] get(String bucket, String key) throws IOException {
        HttpResponse<byte[]> r = send("GET", path(bucket, key), Map.of(), new byte[0]);
        check(r, "GetObject " + key);
        return r.body();
    }

    /** ListObjectsV2's first page at {@code prefix}; returns the number of keys in it. */
    int listFirstPage(String bucket, String prefix, int maxKeys) throws IOException {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("list-type", "2");
        q.put("max-keys", String.valueOf(maxKeys));
        q.put("prefix", prefix);
        HttpResponse<byte[]> r = send("GET", path(bucket, null), q, new byte[0]);
        check(r, "ListObjectsV2 " + prefix);
        String xml = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
        int n = 0;
        for (int i = xml.indexOf("<Key>"); i >= 0; i = xml.indexOf("<Key>", i + 5)) {
            n++;
        }
        return n;
    }
}
