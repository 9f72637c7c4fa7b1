package geoblocks.node.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.net.AccessKey;
import geoblocks.net.FileGrant;
import geoblocks.net.NetAddress;
import geoblocks.network.session.ClientKey;
import geoblocks.node.AppConfig;
import geoblocks.node.KompicsSetup;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.ListeningStatus;

/**
 * One smoke test of the node over each network it can run on ({@code geoblocks.network.implementation}):
 * per network, two nodes (seoul, dublin) and a client, hosted as production hosts them
 * ({@link ServerHost}, {@link ClientHost}) on 127.0.0.1; a file put at seoul on both regions comes
 * back byte for byte from dublin. All hosts share this JVM's one Kompics runtime (so this class runs
 * in a JVM of its own: {@code tests.freshJvm} in the node's pom).
 */
class NodeOverNetworksTest {
    enum Net {
        GEOBLOCKS("geoblocks"), KOMPICS_NETTY("kompics-netty");

        final String implementation;

        Net(String implementation) {
            this.implementation = implementation;
        }
    }

    /** The client's bridge per network and region. */
    private static final Map<Net, Map<String, Bridge>> CLIENTS = new EnumMap<>(Net.class);
    /** Seoul's S3 gateway client per network: the one client seoul takes admin operations from. */
    private static final Map<Net, Bridge> GATEWAYS = new EnumMap<>(Net.class);
    private static final AtomicLong OPS = new AtomicLong();
    /** A client of the geoblocks network by access key GBKEYED (see {@link #KEYS}), per region. */
    private static final Map<String, Bridge> KEYED = new LinkedHashMap<>();
    private static final String KEYED_ID = "GBKEYEDKEYEDKEYEDKEY";
    private static final String KEYED_SECRET = "keyed-client-secret-0123456789";
    /** The keys seoul takes clients by: GBKEYED, granted Reports/ and, to show they never pass, S3's names. */
    private static final Map<String, ClientKey> KEYS = new ConcurrentHashMap<>(Map.of(KEYED_ID, new ClientKey(
            new AccessKey(KEYED_ID, FileGrant.parseAll("Reports/:rw,photos/:rw,.s3-keys/:r")),
            KEYED_SECRET.getBytes(StandardCharsets.UTF_8))));

    @TempDir
    static Path tmp;

    @BeforeAll
    static void start() throws Exception {
        Map<Net, AppConfig> configs = new EnumMap<>(Net.class);
        for (Net n : Net.values()) {
            Path file = tmp.resolve(n.implementation + ".conf");
            Files.writeString(file, """
                    geoblocks.cluster {
                      regions = [
                        { id = seoul,  address = "127.0.0.1:%d" }
                        { id = dublin, address = "127.0.0.1:%d" }
                      ]
                      emulate-wan = false
                      secret = "node-over-networks-secret-0123"
                    }
                    geoblocks.network.implementation = %s
                    """.formatted(freePort(), freePort(), n.implementation));
            configs.put(n, AppConfig.load(file));
        }
        // JVM-wide serializers for Kompics' NettyNetwork; the same secret on both configs
        KompicsSetup.prepare(configs.get(Net.KOMPICS_NETTY));
        List<CompletableFuture<ListeningStatus>> listening = new ArrayList<>();
        Map<Net, Map<String, CompletableFuture<Bridge>>> bridges = new EnumMap<>(Net.class);
        Map<Net, CompletableFuture<Bridge>> gateways = new EnumMap<>(Net.class);
        List<Object[]> hosts = new ArrayList<>();
        for (Net n : Net.values()) {
            AppConfig cfg = configs.get(n);
            NetworkChoice net = NetworkChoice.of(cfg);
            for (String region : cfg.cluster().regionIds()) {
                CompletableFuture<ListeningStatus> l = new CompletableFuture<>();
                listening.add(l);
                NodeParent.NodeInit node = new NodeParent.NodeInit(region, cfg.cluster(), cfg.node(),
                        new MemoryBlockStorage(System::currentTimeMillis), new ManifestStore(new MemoryMetaEngine()), 1);
                ServerHost.ServerInit host = new ServerHost.ServerInit(cfg.cluster().address(region), node, l, net)
                        .withClientKeys(id -> CompletableFuture.completedFuture(Optional.ofNullable(KEYS.get(id))));
                if (region.equals("seoul")) {
                    gateways.put(n, new CompletableFuture<>());
                    host.withGatewayClient(NetAddress.of("127.0.0.1", freePort()), cfg.node(), 30_000, gateways.get(n));
                }
                hosts.add(new Object[] {ServerHost.class, host});
            }
            Map<String, CompletableFuture<Bridge>> futures = new LinkedHashMap<>();
            cfg.cluster().regionIds().forEach(r -> futures.put(r, new CompletableFuture<>()));
            bridges.put(n, futures);
            CompletableFuture<ListeningStatus> l = new CompletableFuture<>();
            listening.add(l);
            hosts.add(new Object[] {ClientHost.class, new ClientHost.ClientHostInit(NetAddress.of("127.0.0.1", freePort()),
                    cfg.cluster(), cfg.node(), 30_000, futures, l, net)});
        }
        AppConfig geo = configs.get(Net.GEOBLOCKS);
        Map<String, CompletableFuture<Bridge>> keyed = new LinkedHashMap<>();
        geo.cluster().regionIds().forEach(r -> keyed.put(r, new CompletableFuture<>()));
        CompletableFuture<ListeningStatus> keyedListening = new CompletableFuture<>();
        listening.add(keyedListening);
        NetworkChoice byKey = NetworkChoice.ofClient(geo, Map.of(ClientAccess.KEY_ENV, KEYED_ID, ClientAccess.SECRET_ENV,
                KEYED_SECRET));
        hosts.add(new Object[] {ClientHost.class, new ClientHost.ClientHostInit(NetAddress.of("127.0.0.1", freePort()),
                geo.cluster(), geo.node(), 30_000, keyed, keyedListening, byKey)});
        Kompics.createAndStart(Root.class, new RootInit(hosts), 2);
        for (CompletableFuture<ListeningStatus> l : listening) {
            l.get(30, TimeUnit.SECONDS);
        }
        for (Net n : Net.values()) {
            Map<String, Bridge> m = new LinkedHashMap<>();
            for (Map.Entry<String, CompletableFuture<Bridge>> e : bridges.get(n).entrySet()) {
                m.put(e.getKey(), e.getValue().get(30, TimeUnit.SECONDS));
            }
            CLIENTS.put(n, m);
            GATEWAYS.put(n, gateways.get(n).get(30, TimeUnit.SECONDS));
        }
        for (Map.Entry<String, CompletableFuture<Bridge>> e : keyed.entrySet()) {
            KEYED.put(e.getKey(), e.getValue().get(30, TimeUnit.SECONDS));
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static ClientPort.Result call(Net n, String region, ClientPort.Request r) throws Exception {
        return CLIENTS.get(n).get(region).submit(r.op(), r, null).get(60, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(Net.class)
    void aFilePutAtOneNode_onBothRegions_comesBackWholeFromTheOther(Net n) throws Exception {
        byte[] data = new byte[300_000]; // several blocks and, on kompics-netty, many chunks per block
        new Random(n.ordinal()).nextBytes(data);
        Path in = tmp.resolve("in-" + n);
        Files.write(in, data);
        // a node places on regions its RTT probes found up (3 probes, about 3 s after start): until then
        // the put is refused as UNAVAILABLE, and asked again
        ClientPort.Result put;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        do {
            put = call(n, "seoul", new ClientPort.Put(OPS.incrementAndGet(), in, "smoke.bin", "tworandom", 64 * 1024));
            if (put.code() == FailureCode.UNAVAILABLE) {
                Thread.sleep(200);
            }
        } while (put.code() == FailureCode.UNAVAILABLE && System.nanoTime() < until);
        assertTrue(put.ok(), "put over " + n + ": " + put.error());

        Path out = tmp.resolve("out-" + n);
        ClientPort.Result get = call(n, "dublin", new ClientPort.Get(OPS.incrementAndGet(), "smoke.bin", out, null, "",
                null));
        assertTrue(get.ok(), "get over " + n + ": " + get.error());
        assertEquals(data.length, ((Manifest) get.value()).size());
        assertArrayEquals(data, Files.readAllBytes(out));

        ClientPort.Result missing = call(n, "dublin", new ClientPort.Get(OPS.incrementAndGet(), "no-such.bin",
                tmp.resolve("none-" + n), null, "", null));
        assertEquals(FailureCode.NOT_FOUND, missing.code(), "a typed failure crosses " + n);
    }

    /**
     * A client holding the cluster secret (every CLI client does) sends the admin operations straight to
     * seoul: a forced removal of dublin, a move and a purge. Each is refused as FORBIDDEN and nothing changes;
     * the same requests from seoul's own S3 gateway client (through which the admin API reaches the node)
     * pass the gate and are decided on their merits.
     */
    @ParameterizedTest
    @EnumSource(Net.class)
    void adminOperationsFromAClient_areRefused_butNotFromTheNodesGatewayClient(Net n) throws Exception {
        List<ClientPort.Request> admin = List.of(
                new ClientPort.Cluster(OPS.incrementAndGet(), "remove", "dublin", "", "", 0, true),
                new ClientPort.Move(OPS.incrementAndGet(), "no-such-file", List.of("seoul")),
                new ClientPort.Purge(OPS.incrementAndGet(), "no-such-file", "0000018c00000001@seoul"));
        for (ClientPort.Request r : admin) {
            ClientPort.Result refused = call(n, "seoul", r);
            assertEquals(FailureCode.FORBIDDEN, refused.code(), r + ": " + refused.error());
        }
        ClientPort.Result show = call(n, "seoul", new ClientPort.Cluster(OPS.incrementAndGet(), "show", "", "", "", 0, false));
        assertTrue(show.ok(), "show is not an admin operation: " + show.error());
        Layout l = LayoutCodec.decode(
                ((ClientOp.ClusterReply) show.value()).layout());
        assertEquals(0, l.version(), "the layout is unchanged");
        assertTrue(l.members().contains("dublin"), "dublin is still a member: " + l.members());

        // a record where the admin API keeps its tokens: a client that wrote one would have minted itself a token
        Path record = tmp.resolve("forged-token-" + n);
        Files.writeString(record, "geoblocks-admin-token-v1\n");
        for (ClientPort.Request r : List.of(
                new ClientPort.Put(OPS.incrementAndGet(), record, ".admin/tokens/aaaaaaaaaaaaaaaa", "tworandom", 4096),
                new ClientPort.Get(OPS.incrementAndGet(), ".admin/tokens/aaaaaaaaaaaaaaaa", tmp.resolve("read-" + n), null, "",
                        null),
                // and a sealed S3 access key (its secret opens with the cluster secret every client holds)
                new ClientPort.Get(OPS.incrementAndGet(), ".s3-keys/GBAAAAAAAAAAAAAAAAAA", tmp.resolve("key-" + n), null, "",
                        null))) {
            ClientPort.Result refused = call(n, "seoul", r);
            assertEquals(FailureCode.FORBIDDEN, refused.code(), r + ": " + refused.error());
        }

        ClientPort.Request move = new ClientPort.Move(OPS.incrementAndGet(), "no-such-file", List.of("seoul"));
        ClientPort.Result viaGateway = GATEWAYS.get(n).submit(move.op(), move, null).get(60, TimeUnit.SECONDS);
        assertEquals(FailureCode.NOT_FOUND, viaGateway.code(),
                "the gateway's client passes the gate: " + viaGateway.error());
    }

    private static ClientPort.Result keyed(ClientPort.Request r) throws Exception {
        return KEYED.get("seoul").submit(r.op(), r, null).get(60, TimeUnit.SECONDS);
    }

    /**
     * A client by access key (its key granted Reports/ read and write, and, in vain, S3's names): it puts and gets
     * under Reports/, and every other name it tries is FORBIDDEN with nothing changed: another name, a name the
     * cluster-secret client wrote, an S3 object's file and a sealed access key; the admin operations too.
     */
    @Test
    void aClientByAccessKey_readsAndWritesOnlyItsGrants_andNeverS3sNames() throws Exception {
        Path in = tmp.resolve("keyed-in");
        Files.write(in, new byte[] {1, 2, 3});
        ClientPort.Result put;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        do { // until seoul's RTT probes found its regions up, as above
            put = keyed(new ClientPort.Put(OPS.incrementAndGet(), in, "Reports/q1.bin", "tworandom", 4096));
            if (put.code() == FailureCode.UNAVAILABLE) {
                Thread.sleep(200);
            }
        } while (put.code() == FailureCode.UNAVAILABLE && System.nanoTime() < until);
        assertTrue(put.ok(), "put under its grant: " + put.error());
        ClientPort.Result got = keyed(new ClientPort.Get(OPS.incrementAndGet(), "Reports/q1.bin", tmp.resolve("keyed-out"),
                null, "", null));
        assertTrue(got.ok(), "get under its grant: " + got.error());
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(tmp.resolve("keyed-out")));

        for (ClientPort.Request r : List.of(
                new ClientPort.Put(OPS.incrementAndGet(), in, "Other/x.bin", "tworandom", 4096),
                new ClientPort.Put(OPS.incrementAndGet(), in, "photos/cat.jpg", "tworandom", 4096),
                new ClientPort.Get(OPS.incrementAndGet(), "photos/cat.jpg", tmp.resolve("k1"), null, "", null),
                new ClientPort.Get(OPS.incrementAndGet(), ".s3-keys/GBAAAAAAAAAAAAAAAAAA", tmp.resolve("k2"), null, "", null),
                new ClientPort.Cluster(OPS.incrementAndGet(), "remove", "dublin", "", "", 0, true),
                new ClientPort.Move(OPS.incrementAndGet(), "Reports/q1.bin", List.of("seoul")))) {
            ClientPort.Result refused = keyed(r);
            assertEquals(FailureCode.FORBIDDEN, refused.code(), r + ": " + refused.error());
        }
        for (String name : List.of("Other/x.bin", "photos/cat.jpg")) {
            ClientPort.Result none = call(Net.GEOBLOCKS, "seoul", new ClientPort.Get(OPS.incrementAndGet(), name,
                    tmp.resolve("none-" + name.replace('/', '-')), null, "", null));
            assertEquals(FailureCode.NOT_FOUND, none.code(), "nothing was written: " + name);
        }
    }

    /** Creates every host of the test under one root (one Kompics runtime per JVM). */
    public static final class Root extends ComponentDefinition {
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Root(RootInit init) {
            for (Object[] h : init.hosts) {
                Component c = create((Class) h[0], (Init) h[1]);
                assert c != null;
            }
        }
    }

    public static final class RootInit extends Init<Root> {
        final List<Object[]> hosts;

        RootInit(List<Object[]> hosts) {
            this.hosts = hosts;
        }
    }
}
