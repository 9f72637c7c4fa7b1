package geoblocks.node;

import com.typesafe.config.Config;
import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.core.layout.Region;
import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.blockstore.wire.BenchOp;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.net.NetAddress;
import geoblocks.network.session.NodeIdentity;
import geoblocks.node.host.Bridge;
import geoblocks.node.host.ClientHost;
import geoblocks.node.host.NetworkChoice;
import geoblocks.node.s3.MiniJson;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.ListeningStatus;

/**
 * A blocking client for plain Java code (CLI, demo, bench, tests): starts this JVM's Kompics
 * runtime with a {@link ClientHost} and talks to any region's node. Thread-safe; one per JVM (the
 * Kompics runtime is JVM-global). Failures throw {@link NodeFailure} (an IOException) with the node's code and message.
 */
public final class GeoClient implements AutoCloseable {
    private final Map<String, Bridge> bridges = new LinkedHashMap<>();
    private final AtomicLong ops = new AtomicLong();
    private final AtomicLong retriedBusy = new AtomicLong();
    private final BusyRetry busyRetry;
    private final AppConfig config;
    private final long timeoutMs;

    /** The node keys this client checks (the config's, then the layouts its nodes answered). */
    private final NodeIdentity identity;

    private GeoClient(BusyRetry busyRetry, AppConfig config, long timeoutMs, NodeIdentity identity) {
        this.identity = identity;
        this.busyRetry = busyRetry;
        this.config = config;
        this.timeoutMs = timeoutMs;
    }

    public static GeoClient start(AppConfig config, long timeoutMs) {
        return start(config, timeoutMs, null);
    }

    /**
     * As above, the client placed in {@code region} of the emulated WAN (when the cluster has it on):
     * its messages to and from other regions' nodes take their delay and loss; null: not placed.
     */
    public static GeoClient start(AppConfig config, long timeoutMs, String region) {
        // by the access key the environment or the config names (ClientAccess), else by the cluster secret
        NetworkChoice net = NetworkChoice.ofClient(config, System.getenv());
        KompicsSetup.prepare(net.secret());
        NetAddress first = config.cluster().regions().values().iterator().next();
        NetAddress self = new NetAddress(Ports.localAddressToward(first), 0);
        self = self.withPort(Ports.freePort(self.getIp()));
        Map<String, CompletableFuture<Bridge>> futures = new LinkedHashMap<>();
        config.cluster().regionIds().forEach(r -> futures.put(r, new CompletableFuture<>()));
        CompletableFuture<ListeningStatus> listening = new CompletableFuture<>();
        Kompics.createAndStart(ClientHost.class, new ClientHost.ClientHostInit(self, config.cluster(),
                config.node(), timeoutMs, futures, listening, net, region), 2);
        Config cc = config.config();
        GeoClient c = new GeoClient(new BusyRetry(cc.getInt("geoblocks.client.busy-retries"),
                cc.getDuration("geoblocks.client.busy-backoff", TimeUnit.MILLISECONDS),
                cc.getDuration("geoblocks.client.busy-backoff-cap", TimeUnit.MILLISECONDS), new Random()),
                config, timeoutMs, net.identity());
        try {
            listening.get(30, TimeUnit.SECONDS);
            for (Map.Entry<String, CompletableFuture<Bridge>> e : futures.entrySet()) {
                c.bridges.put(e.getKey(), e.getValue().get(30, TimeUnit.SECONDS));
            }
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            Kompics.shutdown();
            throw new IllegalStateException("client runtime did not start: " + e);
        }
        return c;
    }

    /** Uploads {@code file} as a new version of {@code name}; returns the node's note. */
    public String put(String region, Path file, String name, String policy, int blockSize,
            Consumer<ClientPort.Progress> progress) throws IOException {
        return put(region, file, name, policy, blockSize, "all", progress);
    }

    /** As above with an ack level: {@code all} (every replica durable) or {@code local} (the first copy; the rest queued). */
    public String put(String region, Path file, String name, String policy, int blockSize, String ack,
            Consumer<ClientPort.Progress> progress) throws IOException {
        return write(region, file, null, name, policy, blockSize, ack, false, progress).info();
    }

    /**
     * Uploads {@code file} (or the bytes of {@code source}) as {@code name}: a new version, or with
     * {@code ifAbsent} only when the name has no live version (its owner region decides); returns
     * the version made and the node's note.
     */
    public ClientPort.Written write(String region, Path file, ByteSource source, String name, String policy,
            int blockSize, String ack, boolean ifAbsent, Consumer<ClientPort.Progress> progress) throws IOException {
        return write(region, file, source, name, policy, blockSize, ack, ifAbsent, Compression.NONE, progress);
    }

    /** As above, each block stored as {@code compress} decides (downloads decompress it). */
    public ClientPort.Written write(String region, Path file, ByteSource source, String name, String policy,
            int blockSize, String ack, boolean ifAbsent, Compression compress, Consumer<ClientPort.Progress> progress)
            throws IOException {
        long op = ops.incrementAndGet();
        return (ClientPort.Written) call(region,
                new ClientPort.Put(op, file, source, name, policy, blockSize, ack, ifAbsent, compress), progress);
    }

    public Manifest get(String region, String name, Path out, Consumer<ClientPort.Progress> progress) throws IOException {
        return get(region, name, out, "", progress);
    }

    /** Downloads version {@code version} of {@code name} (empty: the newest) to {@code out}. */
    public Manifest get(String region, String name, Path out, String version, Consumer<ClientPort.Progress> progress)
            throws IOException {
        return get(region, name, out, version, null, progress);
    }

    /**
     * As {@link #get(String, String, Path, String, Consumer)}, the node reading the blocks with
     * {@code read}'s strategy and replica rank (null: nearest replica first).
     */
    public Manifest get(String region, String name, Path out, String version, ReadOptions read,
            Consumer<ClientPort.Progress> progress) throws IOException {
        return get(region, name, out, version, read, null, progress);
    }

    /** As above, only the bytes {@code range} names (null: all) into {@code out}: the node reads only the blocks covering them. */
    public Manifest get(String region, String name, Path out, String version, ReadOptions read, ClientPort.Range range,
            Consumer<ClientPort.Progress> progress) throws IOException {
        long op = ops.incrementAndGet();
        return (Manifest) call(region, new ClientPort.Get(op, name, out, null, version, read, range), progress);
    }

    /** Uploads the bytes of {@code source} (generated or held by the caller) as {@code name}. */
    public String put(String region, ByteSource source, String name, String policy, int blockSize) throws IOException {
        return write(region, null, source, name, policy, blockSize, "all", false, null).info();
    }

    /** Downloads {@code name} into {@code sink} as it streams (each block checked against its CRC32C). */
    public Manifest get(String region, String name, ByteSink sink) throws IOException {
        long op = ops.incrementAndGet();
        return (Manifest) call(region, new ClientPort.Get(op, name, null, sink), null);
    }

    @SuppressWarnings("unchecked")
    public List<ListEntry> list(String region) throws IOException {
        long op = ops.incrementAndGet();
        return (List<ListEntry>) call(region, new ClientPort.ListFiles(op), null);
    }

    public Manifest stat(String region, String name) throws IOException {
        return statFull(region, name).manifest();
    }

    /** The manifest and the copies the node still owes for the file (known at the node that coordinated its upload). */
    public ClientPort.FileStat statFull(String region, String name) throws IOException {
        return statFull(region, name, "");
    }

    /** As above for version {@code version} of the file (empty: the newest). */
    public ClientPort.FileStat statFull(String region, String name, String version) throws IOException {
        long op = ops.incrementAndGet();
        return (ClientPort.FileStat) call(region, new ClientPort.Stat(op, name, version), null);
    }

    /** Every version of {@code name} the node keeps, newest first, deletes included. */
    @SuppressWarnings("unchecked")
    public List<VersionEntry> versions(String region, String name) throws IOException {
        long op = ops.incrementAndGet();
        return (List<VersionEntry>) call(region, new ClientPort.Versions(op, name), null);
    }

    /** One page of the names under {@code prefix} after {@code after} ("" for the start), at most {@code limit}. */
    public ClientPort.Listing listPage(String region, String prefix, String after, int limit) throws IOException {
        long op = ops.incrementAndGet();
        return (ClientPort.Listing) call(region, new ClientPort.ListPage(op, prefix, after, limit, false), null);
    }

    /** Deletes {@code name} (a tombstone version); returns the node's note. */
    public String delete(String region, String name) throws IOException {
        return remove(region, name).info();
    }

    /** Deletes {@code name}; returns the tombstone's version and the node's note. */
    public ClientPort.Written remove(String region, String name) throws IOException {
        long op = ops.incrementAndGet();
        return (ClientPort.Written) call(region, new ClientPort.Delete(op, name), null);
    }

    /**
     * Moves the file's replicas to {@code regions}; returns what the node did. An admin operation: it goes
     * through the node's admin API ({@link AdminClient}, with the config's or the environment's admin token)
     * and answers when the move ended.
     */
    public String move(String region, String name, List<String> regions) throws IOException {
        Object answer = MiniJson.parse(admin(region, "POST", "/moves", AdminClient.moveRequest(name, regions)));
        return String.valueOf(((Map<?, ?>) answer).get("result"));
    }

    private String admin(String region, String method, String path, String json) throws IOException {
        try {
            return AdminClient.of(config, region, timeoutMs).call(method, path, json);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the admin API of " + region);
        }
    }

    public StatusReply status(String region) throws IOException {
        long op = ops.incrementAndGet();
        return (StatusReply) call(region, new ClientPort.Status(op), null);
    }

    /**
     * The cluster layout as the node of {@code region} holds it, after applying {@code action}
     * ("show", "add", "set", "drain", "remove"; see ClientPort.Cluster). A change is an admin operation: it
     * goes through the node's admin API ({@link AdminClient}); the layout answered is then the node's
     * {@code show} right after it (with the change's warnings), so a change another operator made in between
     * would show too.
     */
    public ClientOp.ClusterReply cluster(String region, String action, String target,
            String address, String zone, long capacityBytes, boolean force) throws IOException {
        List<String> warnings = List.of();
        if (!action.equals("show")) {
            Object answer = MiniJson.parse(admin(region, "POST", "/cluster",
                    AdminClient.clusterChange(action, target, address, zone, capacityBytes, force, "")));
            warnings = ((List<?>) ((Map<?, ?>) answer).get("warnings")).stream().map(String::valueOf).toList();
        }
        long op = ops.incrementAndGet();
        ClientOp.ClusterReply r = (ClientOp.ClusterReply) call(region,
                new ClientPort.Cluster(op, "show", "", "", "", 0, false), null);
        learnKeys(r.layout());
        return new ClientOp.ClusterReply(r.req(), r.layout(), r.regions(), warnings);
    }

    /**
     * Checks the node keys {@code layout} names from the next connection on (a node that proved its own key
     * answered it): a node whose key was rotated is then accepted although the config names its old key.
     */
    private void learnKeys(byte[] layout) {
        try {
            Map<NetAddress, List<PublicKey>> keys = new HashMap<>();
            for (Region g : LayoutCodec.decode(layout)
                    .regions().values()) {
                if (g.member() && g.keyed()) {
                    List<PublicKey> ks = new ArrayList<>();
                    ks.add(NodeIdentity.parse(g.key()));
                    if (!g.previousKey().isEmpty()) {
                        ks.add(NodeIdentity.parse(g.previousKey()));
                    }
                    keys.put(NetAddress.parse(g.address()), ks);
                }
            }
            identity.learn(keys);
        } catch (IOException | IllegalArgumentException e) {
            // a layout this client cannot read teaches it nothing; the config's keys stay
        }
    }

    /** The placement policies the node of {@code region} knows, with their rules. */
    public ClientOp.PoliciesReply policies(String region) throws IOException {
        long op = ops.incrementAndGet();
        return (ClientOp.PoliciesReply) call(region, new ClientPort.Policies(op), null);
    }

    /** Has the node of {@code region} measure its network to region {@code to} (bench net); the node's figures. */
    public BenchOp.NetBenchResult netBench(String region, String to, String mode, int streams,
            long bytes, long rateBps, int durationMs, int payload) throws IOException {
        long op = ops.incrementAndGet();
        return (BenchOp.NetBenchResult) call(region,
                new ClientPort.NetBench(op, to, mode, streams, bytes, rateBps, durationMs, payload), null);
    }

    /**
     * Sends {@code request}; a refusal because the node is busy (nothing was stored or acknowledged)
     * is sent again after a jittered backoff, up to {@code geoblocks.client.busy-retries} times.
     */
    private Object call(String region, ClientPort.Request request, Consumer<ClientPort.Progress> progress)
            throws IOException {
        for (int failed = 1; ; failed++) {
            try {
                return callOnce(region, request, progress);
            } catch (IOException e) {
                if (!busyRetry.shouldRetry(NodeFailure.codeOf(e), failed)) {
                    throw e;
                }
                retriedBusy.incrementAndGet();
                try {
                    Thread.sleep(busyRetry.delayMs(failed));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
            request = request.withOp(ops.incrementAndGet()); // each attempt is a new operation for the client component
        }
    }

    /** Requests sent again because a node was busy, since this client started. */
    public long busyRetries() {
        return retriedBusy.get();
    }

    private Object callOnce(String region, ClientPort.Request request, Consumer<ClientPort.Progress> progress)
            throws IOException {
        Bridge b = bridges.get(region);
        if (b == null) {
            throw new IllegalArgumentException("unknown region '" + region + "'; known: " + bridges.keySet());
        }
        ClientPort.Result r;
        try {
            r = b.submit(request.op(), request, progress).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        }
        if (!r.ok()) {
            throw new NodeFailure(r.failure());
        }
        return r.value();
    }

    @Override
    public void close() {
        Kompics.shutdown();
    }
}
