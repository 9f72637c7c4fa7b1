package geoblocks.s3storage;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where an S3-backed region keeps its blocks: {@code geoblocks.s3-storage.REGION} in the config
 * (absent: the region keeps them on its own disks). The endpoint ({@code http(s)://host:port}),
 * the bucket (which must exist), a key prefix, the signing region, the credentials (the
 * {@code access-key}/{@code secret-key} keys, else the environment's {@code AWS_ACCESS_KEY_ID} and
 * {@code AWS_SECRET_ACCESS_KEY}) and a capacity (0: unlimited). Requests are path-style.
 */
public record S3StorageSettings(URI endpoint, String bucket, String prefix, String signingRegion, String accessKey,
        String secretKey, long capacityBytes) {
    public S3StorageSettings {
        Objects.requireNonNull(endpoint, "endpoint");
        if (!"http".equals(endpoint.getScheme()) && !"https".equals(endpoint.getScheme()) || endpoint.getHost() == null) {
            throw new IllegalArgumentException("the S3 storage endpoint must be http(s)://host[:port], was " + endpoint);
        }
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("the S3 storage needs a bucket");
        }
        if (prefix == null || !prefix.isEmpty() && !prefix.endsWith("/")) {
            throw new IllegalArgumentException("the S3 storage key prefix must be empty or end with '/', was '" + prefix + "'");
        }
        if (accessKey == null || accessKey.isEmpty() || secretKey == null || secretKey.isEmpty()) {
            throw new IllegalArgumentException("the S3 storage of bucket " + bucket + " has no credentials: set access-key"
                    + " and secret-key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
        }
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("the S3 storage capacity must be >= 0, was " + capacityBytes);
        }
    }

    /** The settings of {@code region} under {@code geoblocks.s3-storage}, or empty when it keeps its blocks on disk. */
    public static Optional<S3StorageSettings> of(Config config, String region, Map<String, String> env) {
        String path = "geoblocks.s3-storage.\"" + region + "\"";
        if (!config.hasPath(path)) {
            return Optional.empty();
        }
        Config c = config.getConfig(path);
        try {
            return Optional.of(new S3StorageSettings(URI.create(c.getString("endpoint")), c.getString("bucket"),
                    c.hasPath("prefix") ? c.getString("prefix") : "",
                    c.hasPath("region") ? c.getString("region") : "us-east-1",
                    c.hasPath("access-key") ? c.getString("access-key") : env.get("AWS_ACCESS_KEY_ID"),
                    c.hasPath("secret-key") ? c.getString("secret-key") : env.get("AWS_SECRET_ACCESS_KEY"),
                    c.hasPath("capacity") ? c.getBytes("capacity") : 0));
        } catch (IllegalArgumentException | ConfigException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    /** For messages: never the secret. */
    @Override
    public String toString() {
        return "s3 " + endpoint + "/" + bucket + "/" + prefix + " (region " + signingRegion + ", key " + accessKey + ")";
    }
}
