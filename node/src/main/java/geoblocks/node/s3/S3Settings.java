package geoblocks.node.s3;

import com.typesafe.config.Config;
import geoblocks.net.ClusterConfig;
import geoblocks.node.http.HttpSettings;
import geoblocks.node.http.Redact;
import geoblocks.node.s3.auth.AccessKeys;
import geoblocks.node.s3.body.SpoolSpace;
import geoblocks.node.s3.bucket.S3Lifecycle;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.encryption.SseKeyFile;
import geoblocks.node.s3.migration.ClientNetworks;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * The S3 gateway of one node, from {@code geoblocks.s3} (see reference.conf): its region, the
 * credentials (the HTTP server's), bucket defaults, limits, where bodies are spooled (under the node's
 * data directory), and for DataBridge every region's HTTP endpoint, the client networks, and how often
 * unfinished migrations are swept and retried, and how long a CreateBucket waits for the bucket
 * name's owner to be able to decide creates ({@code createWait}), and the cluster secret (access keys'
 * secrets are sealed under it, {@link AccessKeys}), and the lifecycle's day and how often its rules
 * are applied ({@link S3Lifecycle}), and server-side encryption's cluster keys and whether SSE-C needs
 * HTTPS ({@code sse}, {@link S3Encryption}). Built by name ({@link #builder()}), not by its 24 positions.
 */
public record S3Settings(String region, String accessKey, String secretKey, String defaultPolicy, int defaultBlockSize,
        int maxBlockSize, long maxObjectSize, Duration multipartExpiry, Path spoolDir, boolean redirectPuts,
        boolean redirectGets, int migratedCopies, Duration migrationSweepInterval, Duration migrationRetryMin,
        Duration migrationRetryMax, Map<String, InetSocketAddress> endpoints, ClientNetworks networks,
        Duration createWait, String clusterSecret, List<String> virtualHostDomains, Duration lifecycleDay,
        Duration lifecycleInterval, Sse sse, Spool spool) {

    /**
     * {@code geoblocks.s3.spool}: the most bytes of request bodies the spool may hold ({@code quota}, 0: no
     * quota) and the bytes its disk keeps free ({@code min-free}); see {@link SpoolSpace}.
     */
    public record Spool(long quota, long minFree) {
        public static final Spool DEFAULT = new Spool(64L << 30, 1L << 30);
    }


    /**
     * The spool's limits over its directory: the bytes of the files in it (read by listing it) and the bytes its
     * disk can still take.
     */
    public SpoolSpace spoolSpace(LongSupplier clockMillis) {
        return new SpoolSpace(spool.quota(), spool.minFree(), () -> {
            try (Stream<Path> files = Files.list(spoolDir)) {
                return files.mapToLong(f -> f.toFile().length()).sum();
            } catch (IOException e) {
                return 0; // no spool directory yet: nothing spooled
            }
        }, () -> {
            try {
                Files.createDirectories(spoolDir);
                return Files.getFileStore(spoolDir).getUsableSpace();
            } catch (IOException e) {
                return Long.MAX_VALUE; // the file that would be made names the problem itself
            }
        }, clockMillis);
    }

    /**
     * {@code geoblocks.s3.sse}: the SSE-S3 cluster keys ({@code key-file}, {@link SseKeyFile#NONE} when
     * not set) and whether requests carrying an SSE-C key must come over HTTPS ({@code require-https}).
     */
    public record Sse(SseKeyFile keys, boolean requireHttps) {
        public static final Sse DEFAULT = new Sse(SseKeyFile.NONE, true);
    }

    /**
     * The bucket a virtual-hosted-style request names in its {@code Host} ({@code BUCKET.DOMAIN[:port]}
     * for a configured domain), or null for path style.
     */
    public String virtualBucket(String host) {
        if (host == null) {
            return null;
        }
        String h = host.trim().toLowerCase(Locale.ROOT);
        int colon = h.lastIndexOf(':');
        if (colon > 0 && !h.endsWith("]")) {
            h = h.substring(0, colon);
        }
        for (String d : virtualHostDomains) {
            String suffix = "." + d.toLowerCase(Locale.ROOT);
            if (h.endsWith(suffix) && h.length() > suffix.length()) {
                return h.substring(0, h.length() - suffix.length());
            }
        }
        return null;
    }

    /** The region, keys by id and the policy; the secret key and cluster secret only as set or not. */
    @Override
    public String toString() {
        return "S3Settings[region=" + region + ", accessKey=" + accessKey + ", secretKey="
                + Redact.secret(secretKey) + ", clusterSecret=" + Redact.secret(clusterSecret)
                + ", defaultPolicy=" + defaultPolicy + ", endpoints=" + endpoints + "]";
    }

    public static S3Settings of(Config root, ClusterConfig cluster, String region, HttpSettings http, Path dataDir) {
        Config c = root.getConfig("geoblocks.s3");
        Map<String, InetSocketAddress> endpoints = new LinkedHashMap<>();
        for (String r : cluster.regionIds()) {
            HttpSettings.of(root, r, cluster.address(r).getIp()).ifPresent(h -> endpoints.put(r, h.bind()));
        }
        ClientNetworks networks = new ClientNetworks();
        for (Config n : c.getConfigList("client-networks")) {
            String r = n.getString("region");
            if (!cluster.regionIds().contains(r)) {
                throw new IllegalArgumentException("geoblocks.s3.client-networks: region '" + r + "' is not in the cluster "
                        + cluster.regionIds());
            }
            networks.add(n.getString("cidr"), r);
        }
        long maxObject = c.getBytes("max-object-size");
        if (maxObject < 0) {
            throw new IllegalArgumentException("geoblocks.s3.max-object-size must be >= 0, was " + maxObject);
        }
        Duration sweep = c.getDuration("migration-sweep-interval");
        Duration retryMin = c.getDuration("migration-retry-min");
        Duration retryMax = c.getDuration("migration-retry-max");
        if (sweep.toMillis() <= 0) {
            throw new IllegalArgumentException("geoblocks.s3.migration-sweep-interval must be > 0, was " + sweep);
        }
        if (retryMin.toMillis() <= 0 || retryMax.compareTo(retryMin) < 0) {
            throw new IllegalArgumentException("geoblocks.s3.migration-retry-min must be > 0 and <= migration-retry-max,"
                    + " was " + retryMin + " and " + retryMax);
        }
        Duration createWait = c.getDuration("create-wait");
        if (createWait.isNegative()) {
            throw new IllegalArgumentException("geoblocks.s3.create-wait must be >= 0, was " + createWait);
        }
        Duration day = c.getDuration("lifecycle.day");
        Duration every = c.getDuration("lifecycle.interval");
        if (day.toMillis() <= 0 || every.toMillis() <= 0) {
            throw new IllegalArgumentException("geoblocks.s3.lifecycle.day and .interval must be > 0, were " + day + " and " + every);
        }
        return builder().region(region).accessKey(http.accessKey()).secretKey(http.secretKey())
                .defaultPolicy(c.getString("default-policy"))
                .defaultBlockSize((int) Math.min(Integer.MAX_VALUE, c.getBytes("default-block-size")))
                .maxBlockSize((int) Math.min(Integer.MAX_VALUE, root.getBytes("geoblocks.node.max-block-size")))
                .maxObjectSize(maxObject).multipartExpiry(c.getDuration("multipart-expiry"))
                .spoolDir(dataDir.resolve("s3-spool")).redirectPuts(c.getBoolean("redirect-puts"))
                .redirectGets(c.getBoolean("redirect-gets")).migratedCopies(c.getInt("migrated-copies"))
                .migrationSweepInterval(sweep).migrationRetryMin(retryMin).migrationRetryMax(retryMax)
                .endpoints(endpoints).networks(networks).createWait(createWait)
                .clusterSecret(root.getString("geoblocks.cluster.secret"))
                .virtualHostDomains(c.hasPath("virtual-host-domains") ? c.getStringList("virtual-host-domains") : List.of())
                .lifecycleDay(day).lifecycleInterval(every).sse(sse(c))
                .spool(c.hasPath("spool") ? new Spool(c.getBytes("spool.quota"), c.getBytes("spool.min-free")) : Spool.DEFAULT)
                .build();
    }

    private static Sse sse(Config c) {
        if (!c.hasPath("sse")) {
            return Sse.DEFAULT;
        }
        String file = c.hasPath("sse.key-file") ? c.getString("sse.key-file").trim() : "";
        boolean https = !c.hasPath("sse.require-https") || c.getBoolean("sse.require-https");
        if (file.isEmpty()) {
            return new Sse(SseKeyFile.NONE, https);
        }
        try {
            return new Sse(SseKeyFile.read(Path.of(file)), https);
        } catch (IOException e) {
            throw new IllegalArgumentException("geoblocks.s3.sse.key-file '" + file + "' cannot be read: " + e, e);
        }
    }

    /** A new empty file in the spool directory (made if missing), named {@code prefix...part}. */
    public Path spoolFile(String prefix) throws IOException {
        Files.createDirectories(spoolDir);
        return Files.createTempFile(spoolDir, prefix, ".part");
    }

    /** A builder of gateway settings by name; endpoints, networks and virtual-host domains start empty, SSE and the spool at their defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Gateway settings by name instead of 24 positions. */
    public static final class Builder {
        private String region;
        private String accessKey;
        private String secretKey;
        private String defaultPolicy;
        private int defaultBlockSize;
        private int maxBlockSize;
        private long maxObjectSize;
        private Duration multipartExpiry;
        private Path spoolDir;
        private boolean redirectPuts;
        private boolean redirectGets;
        private int migratedCopies;
        private Duration migrationSweepInterval;
        private Duration migrationRetryMin;
        private Duration migrationRetryMax;
        private Map<String, InetSocketAddress> endpoints = Map.of();
        private ClientNetworks networks = new ClientNetworks();
        private Duration createWait;
        private String clusterSecret;
        private List<String> virtualHostDomains = List.of();
        private Duration lifecycleDay;
        private Duration lifecycleInterval;
        private Sse sse = Sse.DEFAULT;
        private Spool spool = Spool.DEFAULT;

        private Builder() {
        }

        public Builder region(String v) {
            this.region = v;
            return this;
        }

        public Builder accessKey(String v) {
            this.accessKey = v;
            return this;
        }

        public Builder secretKey(String v) {
            this.secretKey = v;
            return this;
        }

        public Builder defaultPolicy(String v) {
            this.defaultPolicy = v;
            return this;
        }

        public Builder defaultBlockSize(int v) {
            this.defaultBlockSize = v;
            return this;
        }

        public Builder maxBlockSize(int v) {
            this.maxBlockSize = v;
            return this;
        }

        public Builder maxObjectSize(long v) {
            this.maxObjectSize = v;
            return this;
        }

        public Builder multipartExpiry(Duration v) {
            this.multipartExpiry = v;
            return this;
        }

        public Builder spoolDir(Path v) {
            this.spoolDir = v;
            return this;
        }

        public Builder redirectPuts(boolean v) {
            this.redirectPuts = v;
            return this;
        }

        public Builder redirectGets(boolean v) {
            this.redirectGets = v;
            return this;
        }

        public Builder migratedCopies(int v) {
            this.migratedCopies = v;
            return this;
        }

        public Builder migrationSweepInterval(Duration v) {
            this.migrationSweepInterval = v;
            return this;
        }

        public Builder migrationRetryMin(Duration v) {
            this.migrationRetryMin = v;
            return this;
        }

        public Builder migrationRetryMax(Duration v) {
            this.migrationRetryMax = v;
            return this;
        }

        public Builder endpoints(Map<String, InetSocketAddress> v) {
            this.endpoints = v;
            return this;
        }

        public Builder networks(ClientNetworks v) {
            this.networks = v;
            return this;
        }

        public Builder createWait(Duration v) {
            this.createWait = v;
            return this;
        }

        public Builder clusterSecret(String v) {
            this.clusterSecret = v;
            return this;
        }

        public Builder virtualHostDomains(List<String> v) {
            this.virtualHostDomains = v;
            return this;
        }

        public Builder lifecycleDay(Duration v) {
            this.lifecycleDay = v;
            return this;
        }

        public Builder lifecycleInterval(Duration v) {
            this.lifecycleInterval = v;
            return this;
        }

        public Builder sse(Sse v) {
            this.sse = v;
            return this;
        }

        public Builder spool(Spool v) {
            this.spool = v;
            return this;
        }

        public S3Settings build() {
            return new S3Settings(region, accessKey, secretKey, defaultPolicy, defaultBlockSize, maxBlockSize,
                    maxObjectSize, multipartExpiry, spoolDir, redirectPuts, redirectGets, migratedCopies,
                    migrationSweepInterval, migrationRetryMin, migrationRetryMax, endpoints, networks, createWait,
                    clusterSecret, virtualHostDomains, lifecycleDay, lifecycleInterval, sse, spool);
        }
    }
}
