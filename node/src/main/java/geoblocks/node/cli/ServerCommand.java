package geoblocks.node.cli;

import com.typesafe.config.Config;
import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.AdmissionSettings;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.DataDir;
import geoblocks.blockstore.core.FileBlockStorage;
import geoblocks.blockstore.core.GcSettings;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MultiDiskStorage;
import geoblocks.blockstore.core.ReplicationQueue;
import geoblocks.blockstore.core.layout.ClusterUpgrade;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.Region;
import geoblocks.blockstore.core.liveness.DetectorSettings;
import geoblocks.blockstore.core.placement.PlacementSettings;
import geoblocks.blockstore.core.placement.PolicySet;
import geoblocks.blockstore.meta.LegacyUpgrade;
import geoblocks.blockstore.meta.MetaLayoutStore;
import geoblocks.blockstore.meta.MetaReplicationQueueStore;
import geoblocks.blockstore.meta.MetaSettings;
import geoblocks.blockstore.meta.RocksMetaEngine;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.net.DurableFile;
import geoblocks.net.HostPort;
import geoblocks.net.NetAddress;
import geoblocks.net.SecretFile;
import geoblocks.network.session.KeyResolver;
import geoblocks.network.session.NodeIdentity;
import geoblocks.node.AppConfig;
import geoblocks.node.BuildVersion;
import geoblocks.node.DataDirs;
import geoblocks.node.KompicsSetup;
import geoblocks.node.Ports;
import geoblocks.node.admin.AdminApi;
import geoblocks.node.admin.AdminBackend;
import geoblocks.node.admin.AdminTokenStore;
import geoblocks.node.admin.AdminTokens;
import geoblocks.node.admin.NodeAdminBackend;
import geoblocks.node.host.Bridge;
import geoblocks.node.host.NetworkChoice;
import geoblocks.node.host.NodeKeys;
import geoblocks.node.host.ServerHost;
import geoblocks.node.http.BasicAuth;
import geoblocks.node.http.DashboardPassword;
import geoblocks.node.http.HttpRefusals;
import geoblocks.node.http.HttpServer;
import geoblocks.node.http.HttpSettings;
import geoblocks.node.http.HttpTls;
import geoblocks.node.http.LoginThrottle;
import geoblocks.node.http.OpsRoutes;
import geoblocks.node.http.Router;
import geoblocks.node.http.TransferHistory;
import geoblocks.node.jvmcache.JvmCaches;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Gateway;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.auth.AccessKeys;
import geoblocks.node.s3.auth.FileKeys;
import geoblocks.node.s3.auth.S3KeyStore;
import geoblocks.s3storage.S3BlockStorage;
import geoblocks.s3storage.S3StorageSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.ListeningStatus;

/** {@code server --id REGION}: runs one node until killed. */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = "Run the node of one region until stopped (Ctrl-C / SIGTERM).")
public final class ServerCommand implements Callable<Integer> {
    @Option(names = "--id", required = true, paramLabel = "REGION", description = "Region of this node, e.g. seoul.")
    String region;

    @Option(names = "--config", paramLabel = "FILE", description = "HOCON cluster config (default: built-in local 4-region cluster).")
    Path config;

    @Option(names = "--data", paramLabel = "DIR[,capacity=SIZE][,reserve=SIZE]",
            description = "Data directory, repeated for several disks (default: geoblocks.node.data-dirs, else"
                    + " geoblocks-data/REGION). The first also holds the metadata (meta/).")
    List<String> data;

    /** Daemon threads for block I/O: blocked in fsync most of the time, so many are cheap. */
    static ExecutorService ioPool(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("geoblocks.node.io-threads must be >= 1, was " + threads);
        }
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "blockstore-io-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The region's bucket when {@code geoblocks.s3-storage.REGION} is set (the data directory then holds
     * only the metadata); else one directory: a {@link FileBlockStorage}; several: a
     * {@link MultiDiskStorage} over them.
     */
    private BlockStorage openBlocks(AppConfig cfg, List<DataDir> dirs) throws IOException {
        Optional<S3StorageSettings> s3 = S3StorageSettings.of(cfg.config(), region, System.getenv());
        if (s3.isPresent()) {
            if (dirs.size() > 1) {
                throw new IllegalArgumentException("region " + region + " keeps its blocks in S3 (geoblocks.s3-storage."
                        + region + "): give it one data directory, for its metadata, not " + dirs.size());
            }
            return S3BlockStorage.open(s3.get(), System::currentTimeMillis, region);
        }
        if (dirs.size() == 1) {
            DataDir d = dirs.get(0);
            return new FileBlockStorage(d.path(), d.reserveBytes(), d.capacityBytes());
        }
        MultiDiskStorage multi = MultiDiskStorage.open(dirs);
        for (String lost : multi.checkDisks()) {
            System.err.printf("%s: data directory %s; its blocks are repaired from peers onto the others%n", region, lost);
        }
        return multi;
    }

    /** The node key file in a node's data directory (NodeIdentity: PKCS#8 private key, then the public key). */
    static final String NODE_KEY_FILE = "node.key";

    /**
     * The network of node {@code self}, signing its handshakes with its node key, kept in {@code DATA/node.key}
     * (made at the first start and printed, for the operator to name in the config or in {@code cluster add
     * --key}). The key the config names for it must be that one, unless the stored cluster layout
     * ({@code layout}, null: none) names it instead (the layout wins: a rotated key). A rotation whose next key
     * ({@code DATA/node.key.next}) the layout names, its previous key retired (so every member accepts it),
     * is finished here: that key becomes {@code node.key}.
     */
    static NetworkChoice withNodeKey(NetworkChoice net, NetAddress self, Path dir, Region own)
            throws IOException {
        Path file = dir.resolve(NODE_KEY_FILE);
        Path next = dir.resolve(NodeKeys.NEXT);
        if (own != null && Files.exists(next) && own.previousKey().isEmpty()
                && own.key().equals(NodeIdentity.format(NodeIdentity.loadOrCreate(next).getPublic()))) {
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING);
            DurableFile.syncDirectory(dir);
        }
        KeyPair kp = NodeIdentity.loadOrCreate(file);
        String mine = NodeIdentity.format(kp.getPublic());
        if (own != null && (own.key().equals(mine) || own.previousKey().equals(mine))) {
            return net.signingWith(kp.getPrivate()); // the layout names this key: it wins over the config's
        }
        PublicKey named = net.identity().keyOf(self);
        if (named == null) {
            // it signs all the same: a region added with `cluster add ... --key` is named in the layout, not the config
            System.out.printf("node key %s (in %s; the config names no key for this node: a layout that names it, after"
                    + " `cluster add REGION HOST:PORT --key %s`, makes peers check it; until then only the cluster"
                    + " secret is)%n", mine, file.toAbsolutePath(), mine);
            return net.signingWith(kp.getPrivate());
        }
        if (!Arrays.equals(named.getEncoded(), kp.getPublic().getEncoded())) {
            throw new IllegalStateException("the config names the key " + NodeIdentity.format(named)
                    + " for " + self + ", but " + file.toAbsolutePath() + " holds " + mine + ": give the config this node's key"
                    + " (key = \"" + mine + "\" in its region entry), or restore the node's key file");
        }
        return net.signingWith(kp.getPrivate());
    }

    private static String describe(BlockStorage blocks) {
        if (blocks instanceof FileBlockStorage f) {
            return f.removedTempFiles() > 0 ? ", removed " + f.removedTempFiles() + " partial writes" : "";
        }
        if (blocks instanceof S3BlockStorage) {
            return ", blocks in S3";
        }
        if (blocks instanceof MultiDiskStorage m) {
            long working = m.disks().stream().filter(MultiDiskStorage.DiskState::healthy).count();
            return ", " + m.disks().size() + " disks, " + working + " working";
        }
        return "";
    }

    /**
     * Where node {@code region} listens when not at the address of its region entry:
     * {@code geoblocks.cluster.regions[].bind} (e.g. 0.0.0.0, or the private address a NAT forwards the
     * advertised one to), or null when the entry has none.
     */
    static InetAddress bindAddress(Config root, String region) {
        for (Config r : root.getConfigList("geoblocks.cluster.regions")) {
            if (r.getString("id").equals(region) && r.hasPath("bind")) {
                String b = r.getString("bind").trim();
                try {
                    return InetAddress.getByName(b);
                } catch (UnknownHostException e) {
                    throw new IllegalArgumentException("geoblocks.cluster.regions: region '" + region + "': bind '" + b
                            + "' is not an address: " + e.getMessage());
                }
            }
        }
        return null;
    }

    /**
     * The admin API's root token: the config's {@code geoblocks.admin.token}, else the one the node made in
     * {@code DATA/admin-token} (printed where). The demo token is refused off loopback.
     */
    static String adminRootToken(AppConfig cfg, Path dir, NetAddress self) throws IOException {
        String root = cfg.config().getString("geoblocks.admin.token");
        if (root.isEmpty()) {
            root = SecretFile.loadOrCreate(dir.resolve(AdminTokens.ROOT_FILE), "gbr_", new SecureRandom());
            System.out.printf("geoblocks node admin API root token in %s%n", dir.resolve(AdminTokens.ROOT_FILE).toAbsolutePath());
        }
        String problem = AdminTokens.rootProblem(root);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        if (root.equals(AdminTokens.DEMO_ROOT) && !self.getIp().isLoopbackAddress()) {
            throw new IllegalArgumentException("geoblocks.admin.token is the built-in demo token but the node binds "
                    + HostPort.literal(self.getIp()) + ": set your own, or none (the node makes one in"
                    + " DATA/admin-token)");
        }
        return root;
    }

    @Override
    public Integer call() throws Exception {
        AppConfig cfg = AppConfig.load(config);
        // a bad or conflicting policy stops the node here, with a message naming its key
        PolicySet policies = PolicySet.build(PlacementSettings.from(cfg.config(), cfg.cluster().regionIds()),
                PolicySet.class.getClassLoader());
        NetAddress self = cfg.cluster().address(region);
        InetAddress bind = bindAddress(cfg.config(), region); // null: listen on the address itself
        InetAddress listenIp = bind != null ? bind : self.getIp();
        String bindProblem = Ports.bindProblem(listenIp, self.getPort(), region);
        if (bindProblem != null) {
            throw new IllegalStateException(bindProblem);
        }
        List<DataDir> dirs = DataDirs.resolve(cfg.config(), region, data);
        Path dir = dirs.get(0).path();
        BlockStorage blocks = openBlocks(cfg, dirs);
        MetaSettings metaSettings = new MetaSettings(cfg.config().getBytes("geoblocks.node.meta.block-cache"),
                cfg.config().getBytes("geoblocks.node.meta.write-buffer"), true);
        RocksMetaEngine engine = RocksMetaEngine.open(dir.resolve("meta"), metaSettings);
        ManifestStore manifests = new ManifestStore(engine);
        MetaReplicationQueueStore queue = new MetaReplicationQueueStore(engine);
        LegacyUpgrade.Result upgraded = LegacyUpgrade.run(dir, manifests, queue);
        if (!upgraded.equals(LegacyUpgrade.Result.NOTHING)) {
            System.out.printf("%s: converted %d manifests and %d queued copies into the metadata engine (%d unreadable"
                    + " manifest files kept in manifests.unreadable/)%n", region, upgraded.converted(), upgraded.queued(),
                    upgraded.unreadable());
        }
        List<ReplicationQueue.Copy> owed = queue.load(); // read once; a damaged value stops the node here, naming it

        KompicsSetup.prepare(cfg);
        CompletableFuture<ListeningStatus> listening = new CompletableFuture<>();
        NodeParent.NodeInit node = new NodeParent.NodeInit(region, cfg.cluster(), cfg.node(), blocks, manifests,
                new SecureRandom().nextLong(), ioPool(cfg.config().getInt("geoblocks.node.io-threads")))
                .withReplicationQueue(queue, owed).withPolicies(policies).withGc(GcSettings.from(cfg.config()))
                .withDetector(DetectorSettings.from(cfg.config()).coveringDownAfter(cfg.node().downAfterMs()))
                .withAdmission(AdmissionSettings.from(cfg.config()));
        Layout stored = MetaLayoutStore.read(engine);
        NetworkChoice net = withNodeKey(NetworkChoice.of(cfg), cfg.cluster().address(region), dir,
                stored == null ? null : stored.region(region));
        String tooOld = ClusterUpgrade.tooOld(stored, net.release());
        if (tooOld != null) { // the cluster version rose above this build: refuse here, before anything starts
            throw new IllegalStateException(tooOld);
        }
        if (bind != null) {
            net = net.listeningOn(bind);
        }
        NodeKeys nodeKeys = new NodeKeys(net.identity(), dir);
        Optional<HttpSettings> http = HttpSettings.of(cfg.config(), region, listenIp);
        if (http.isPresent() && !Ports.isFree(listenIp, http.get().bind().getPort())) {
            throw new IllegalStateException("http-port " + http.get().bind().getPort() + " on "
                    + HostPort.literal(listenIp) + " is in use");
        }
        AtomicReference<NodeSnapshot> snapshots = new AtomicReference<>();
        TransferHistory history = new TransferHistory(TransferHistory.DEFAULT_CAPACITY);
        ServerHost.ServerInit hostInit = new ServerHost.ServerInit(self, node, listening, net, s -> {
            snapshots.set(s);
            history.add(s.timeMillis(), s.status().transfers(), s.status().background().peers());
        }).withNodeKeys(nodeKeys);
        // clients by access key: looked up in the node's store once its gateway's client is up (none before)
        AtomicReference<KeyResolver> clientKeys = new AtomicReference<>(KeyResolver.NONE);
        hostInit.withClientKeys(id -> clientKeys.get().resolve(id));
        CompletableFuture<Bridge> gatewayBridge = new CompletableFuture<>();
        boolean s3 = http.isPresent() && cfg.config().getBoolean("geoblocks.s3.enabled");
        String adminRoot = http.isPresent() ? adminRootToken(cfg, dir, self) : null;
        if (http.isPresent()) {
            // the S3 gateway's client: the admin API reaches the node through it too (the one admin client)
            // its address only has to be unique: it reaches the node in-process (listening where the node does)
            InetAddress gw = listenIp.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : listenIp;
            hostInit.withGatewayClient(new NetAddress(gw, Ports.freePort(gw)), cfg.node(), 30_000, gatewayBridge);
        }
        Kompics.createAndStart(ServerHost.class, hostInit,
                Math.max(2, Runtime.getRuntime().availableProcessors()));
        try {
            listening.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            Kompics.shutdown();
            throw new IllegalStateException("node " + region + " could not bind " + self + " within 30 s");
        }
        HttpServer server = null;
        HttpTls tls = HttpTls.of(cfg.config());
        if (http.isPresent()) {
            HttpSettings h = http.get();
            HttpRefusals refusals = new HttpRefusals();
            Router router = new OpsRoutes(snapshots::get, dir, System::currentTimeMillis, blocks::stored, refusals, history,
                    hostInit.versions(), blocks::space)
                    .mount(new Router(), h.probesNeedAuth());
            NodeStore nodeStore = new NodeStore(gatewayBridge, manifests.sharedReads(), region);
            clientKeys.set(new FileKeys(new S3KeyStore(nodeStore, new AccessKeys(cfg.secret()), null, null,
                    System::currentTimeMillis)));
            if (s3) {
                new S3Gateway(S3Settings.of(cfg.config(), cfg.cluster(), region, h, dir), cfg.cluster(),
                        nodeStore, System::currentTimeMillis).withNodeState(snapshots::get).mount(router);
            }
            AdminBackend admin = new NodeAdminBackend(nodeStore);
            new AdminApi(admin, new AdminTokenStore(admin, System::currentTimeMillis), adminRoot, System::currentTimeMillis,
                    new SecureRandom(), LoginThrottle.standard(System::currentTimeMillis),
                    new AccessKeys(cfg.secret()), new AdminApi.KeyRotation(region, nodeKeys::prepareRotation))
                    .mount(router);
            String dashboardPassword = h.dashboardPassword();
            if (dashboardPassword.isEmpty()) {
                dashboardPassword = DashboardPassword.loadOrCreate(dir, new SecureRandom());
                System.out.printf("geoblocks node %s dashboard user %s, password in %s%n", region, h.dashboardUser(),
                        dir.resolve(DashboardPassword.FILE).toAbsolutePath());
            }
            BasicAuth dashboard = new BasicAuth(h.dashboardUser(), dashboardPassword,
                    LoginThrottle.standard(System::currentTimeMillis));
            server = HttpServer.start(h.bind(), router, dashboard,
                    HttpSettings.limits(cfg.config()), refusals, tls.context(self.getIp().getHostAddress()),
                    tls.mode() == HttpTls.Mode.OPTIONAL);
        }
        System.out.printf("geoblocks node %s listening on %s (network %s; data %s: %d blocks, %d files%s%s%s)%n", region, self,
                net.describe(self),
                dir.toAbsolutePath(), blocks.stored().blocks(), manifests.size(),
                owed.isEmpty() ? "" : ", " + owed.size() + " queued replica copies to resume",
                describe(blocks),
                cfg.cluster().emulateWan() ? ", emulated WAN on" : "");
        System.out.printf("geoblocks node %s runs %s: %s%s%n", region, BuildVersion.describe(),
                BuildVersion.protocols(), net.previousRelease() ? " (" + NetworkChoice.PREVIOUS_RELEASE
                        + ": it offers file protocol " + (FileCodec.RANGE.max() - 1)
                        + " at most, as the previous release)" : "");
        System.out.println(JvmCaches.serverStatus().forNode(region));
        if (server != null) {
            System.out.printf("geoblocks node %s dashboard and metrics on %s://%s/%s%s%n", region,
                    tls.mode() == HttpTls.Mode.REQUIRED ? "https" : "http",
                    HostPort.of(server.address().getAddress(), server.address().getPort()),
                    s3 ? " (and the S3 gateway)" : "", !tls.on() ? "" : ", TLS " + tls.mode().name().toLowerCase(
                            Locale.ROOT) + " with " + tls.source());
        }
        System.out.flush();
        HttpServer httpServer = server;
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (httpServer != null) {
                httpServer.close();
            }
            Kompics.shutdown();
            stop.countDown();
        }));
        stop.await();
        return 0;
    }
}
