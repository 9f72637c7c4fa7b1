package geoblocks.app.bench;

import geoblocks.node.s3.auth.S3Signer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * A small S3 client for benchmarks (path-style, SigV4 with a signed payload, HTTP/1.1 keep-alive):
 * the same client against geoblocks and against any other S3 store, so their figures compare. It
 * speaks through {@link LeanHttp} (plain HTTP) unless {@code jdk} is asked for or the endpoint is
 * HTTPS, then through the JDK's {@code HttpClient}. Retries nothing: a failed request is counted by
 * the caller (LeanHttp only replaces a kept connection the server closed before answering).
 */
public final class S3BenchClient implements AutoCloseable {
    private static final String EMPTY_SHA = S3Signer.payloadHash(new byte[0]);
    private final HttpClient http;
    private final LeanHttp lean;
    private final URI endpoint;
    private final String host;
    private final S3Signer signer;

    public S3BenchClient(URI endpoint, String accessKey, String secret, String region, boolean jdk) {
        boolean useJdk = jdk || !"http".equals(endpoint.getScheme());
        this.http = useJdk ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build() : null;
        this.lean = useJdk ? null : new LeanHttp(endpoint.getHost(), endpoint.getPort() > 0 ? endpoint.getPort() : 80, 60_000);
        this.endpoint = endpoint;
        this.host = useJdk ? endpoint.getHost() + (endpoint.getPort() > 0 ? ":" + endpoint.getPort() : "") : lean.host();
        this.signer = new S3Signer(accessKey, secret, region);
    }

    /** Which HTTP client this one speaks through, for the report. */
    String transport() {
        return lean != null ? "lean HTTP/1.1 client (one blocking connection per thread)" : "JDK HttpClient";
    }

    @Override
    public void close() {
        if (lean != null) {
            lean.close();
        }
    }

    static String path(String bucket, String key) {
        StringJoiner j = new StringJoiner("/", "/" + S3Signer.encode(bucket) + (key == null ? "" : "/"), "");
        if (key != null) {
            Arrays.stream(key.split("/", -1)).map(S3Signer::encode).forEach(j::add);
        }
        return j.toString();
    }

    private LeanHttp.Response send(String method, String rawPath, Map<String, String> query, byte[] body)
            throws IOException {
        String hash = body.length == 0 ? EMPTY_SHA : S3Signer.payloadHash(body);
        String q = query.entrySet().stream().map(e -> S3Signer.encode(e.getKey()) + "=" + S3Signer.encode(e.getValue()))
                .collect(Collectors.joining("&"));
        String target = rawPath + (q.isEmpty() ? "" : "?" + q);
        Map<String, String> signed = signer.sign(method, host, rawPath, query, hash, Instant.now());
        if (lean != null) {
            return lean.send(method, target, signed, body);
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint.getScheme() + "://" + host + target))
                .timeout(Duration.ofSeconds(60))
                .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        signed.forEach(b::header);
        try {
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new LeanHttp.Response(r.statusCode(), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    private static void check(LeanHttp.Response r, String what) throws IOException {
        if (r.status() / 100 != 2) {
            String body = new String(r.body(), StandardCharsets.UTF_8);
            throw new IOException(what + ": HTTP " + r.status() + " " + body.substring(0, Math.min(300, body.length())));
        }
    }

    public void createBucket(String bucket) throws IOException {
        LeanHttp.Response r = send("PUT", path(bucket, null), Map.of(), new byte[0]);
        if (r.status() != 409) { // already there: fine for a benchmark
            check(r, "CreateBucket " + bucket);
        }
    }

    public void put(String bucket, String key, byte[] body) throws IOException {
        check(send("PUT", path(bucket, key), Map.of(), body), "PutObject " + key);
    }

    public byte[] get(String bucket, String key) throws IOException {
        LeanHttp.Response r = send("GET", path(bucket, key), Map.of(), new byte[0]);
        check(r, "GetObject " + key);
        return r.body();
    }

    /** ListObjectsV2's first page at {@code prefix}; returns the number of keys in it. */
    public int listFirstPage(String bucket, String prefix, int maxKeys) throws IOException {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("list-type", "2");
        q.put("max-keys", String.valueOf(maxKeys));
        q.put("prefix", prefix);
        LeanHttp.Response r = send("GET", path(bucket, null), q, new byte[0]);
        check(r, "ListObjectsV2 " + prefix);
        String xml = new String(r.body(), StandardCharsets.UTF_8);
        int n = 0;
        for (int i = xml.indexOf("<Key>"); i >= 0; i = xml.indexOf("<Key>", i + 5)) {
            n++;
        }
        return n;
    }
}
