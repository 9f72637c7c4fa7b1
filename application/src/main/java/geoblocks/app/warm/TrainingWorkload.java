package geoblocks.app.warm;

import geoblocks.app.bench.S3BenchClient;
import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.node.GeoClient;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The requests {@code train} sends to its cluster, so that the recording node runs the paths a serving
 * node runs most: through the file protocol, puts of one block and of several under every placement
 * policy and gets of them, at every region (the recording node takes client requests, forwards, stores
 * replicas and serves reads); through the S3 gateway, PutObject, GetObject and a ListObjectsV2 now and
 * then, on several connections at once. Seeded: the same bytes each run. A failed request fails the run.
 */
final class TrainingWorkload {
    static final String BUCKET = "train";
    /** Bytes of a one-block object, and of a several-block one (every tenth put) with its block size. */
    static final int SMALL = 2048;
    static final int LARGE = 320 * 1024;
    static final int LARGE_BLOCK = 64 * 1024;
    /** Concurrent S3 connections. */
    static final int S3_THREADS = 4;

    private final List<String> regions;

    TrainingWorkload(List<String> regions) {
        this.regions = List.copyOf(regions);
    }

    /** {@code n} puts through the file protocol, each read back at the next region; returns the bytes read. */
    long fileProtocol(GeoClient client, int n) throws IOException {
        List<String> policies = client.policies(regions.get(0)).policies().stream().map(ClientOp.PolicyInfo::name).toList();
        SplittableRandom rnd = new SplittableRandom(46);
        long read = 0;
        for (int i = 0; i < n; i++) {
            boolean large = i % 10 == 9;
            byte[] data = new byte[large ? LARGE : SMALL];
            rnd.nextBytes(data);
            String name = "train/file-" + i;
            client.put(regions.get(i % regions.size()), ByteSource.of(data), name, policies.get(i % policies.size()),
                    large ? LARGE_BLOCK : 1 << 20);
            long[] got = new long[1];
            client.get(regions.get((i + 1) % regions.size()), name, new ByteSink() {
                @Override
                public void begin() {
                    got[0] = 0;
                }

                @Override
                public void write(long offset, byte[] bytes) {
                    got[0] += bytes.length;
                }
            });
            if (got[0] != data.length) {
                throw new IOException("train: get of " + name + " returned " + got[0] + " bytes, not " + data.length);
            }
            read += got[0];
        }
        return read;
    }

    /**
     * {@code n} PutObjects and as many GetObjects (and a listing every 100) through the S3 gateways at
     * {@code endpoints} (one per region), on {@link #S3_THREADS} connections; returns the requests made.
     */
    long s3(List<URI> endpoints, String accessKey, String secretKey, int n) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(S3_THREADS);
        try {
            List<Future<Long>> done = new ArrayList<>();
            for (int t = 0; t < S3_THREADS; t++) {
                int thread = t;
                done.add(pool.submit(() -> s3Share(endpoints.get(thread % endpoints.size()), accessKey, secretKey, thread, n)));
            }
            long requests = 0;
            for (Future<Long> f : done) {
                requests += f.get();
            }
            return requests;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Thread {@code t}'s share of the S3 requests: keys t, t + threads, ... below {@code n}. */
    private static long s3Share(URI endpoint, String accessKey, String secretKey, int t, int n) throws IOException {
        SplittableRandom rnd = new SplittableRandom(t);
        long requests = 0;
        try (S3BenchClient c = new S3BenchClient(endpoint, accessKey, secretKey, "us-east-1", false)) {
            for (int i = t; i < n; i += S3_THREADS) {
                byte[] body = new byte[i % 10 == 9 ? 64 * 1024 : 1024];
                rnd.nextBytes(body);
                String key = String.format("s3/%08d", i);
                c.put(BUCKET, key, body);
                if (c.get(BUCKET, key).length != body.length) {
                    throw new IOException("train: GetObject of " + key + " returned another length than " + body.length);
                }
                requests += 2;
                if (i % 100 == t) {
                    c.listFirstPage(BUCKET, "s3/", 100);
                    requests++;
                }
            }
        }
        return requests;
    }
}
