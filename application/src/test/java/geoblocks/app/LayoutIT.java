package geoblocks.app;

import static geoblocks.app.ItSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.core.layout.Region;
import geoblocks.blockstore.core.layout.RegionState;
import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.network.session.NodeIdentity;
import geoblocks.node.AdminClient;
import geoblocks.node.GeoClient;
import geoblocks.node.NodeFailure;
import geoblocks.node.s3.MiniJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster layout on four real node processes (anti-entropy every 500 ms): version 0 from the
 * config; {@code cluster drain dublin} at seoul reaches every node, new copies avoid dublin, a
 * {@code local} put at dublin is refused, creates of names dublin owned are decided by their new
 * owners once handed over; the files that had copies at dublin move off it and stay readable;
 * {@code remove} of an active region is refused, of dublin accepted once drained; {@code /metrics}
 * shows the version; {@code cluster set} puts seoul and mumbai in one zone, a {@code localclosest}
 * put at seoul then places its second copy in another zone, and a version moved to seoul and mumbai
 * before is moved by the rebalancer to seoul and saopaulo.
 */
@ExtendWith(QuickLaunch.class)
class LayoutIT {
    @TempDir
    static Path work;
    static ItSupport.Nodes nodes;
    static GeoClient client;

    @BeforeAll
    static void start() throws Exception {
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), false,
                "geoblocks.node { anti-entropy-interval = 500 ms }", 20_000, 60);
        client = nodes.client();
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    static Layout layoutAt(String region) throws IOException {
        return LayoutCodec.decode(client.cluster(region, "show", "", "", "", 0, false).layout());
    }

    @Test
    void drainThenRemove_spreadToEveryNode_andNodesActOnIt() throws Exception {
        for (String r : LocalCluster.REGIONS) {
            Layout l = layoutAt(r);
            assertEquals(0, l.version(), r);
            assertEquals(LocalCluster.REGIONS.stream().sorted().toList(), l.owners(), r);
        }
        Path in = ItSupport.randomFile(work, "in", 70_000, 3);
        for (int i = 0; i < 6; i++) {
            client.put(LocalCluster.REGIONS.get(i % 4), in, "before/" + i, "tworandom", 65536, null);
        }
        // a change waits until every member reported the current version to the node asked (at its
        // anti-entropy exchanges, every 1-8 s): wait for that, as an operator reads `cluster show`
        await(60, "every region reported layout version 0 to seoul", () -> {
            try {
                return client.cluster("seoul", "show", "", "", "", 0, false).regions().stream()
                        .allMatch(g -> g.reportedVersion() == 0);
            } catch (IOException e) {
                return false;
            }
        });
        ClusterReply drained = client.cluster("seoul", "drain", "dublin", "", "", 0, false);
        assertEquals(1, LayoutCodec.decode(drained.layout()).version());
        await(30, "every node on layout version 1", () -> LocalCluster.REGIONS.stream().allMatch(r -> {
            try {
                Layout l = layoutAt(r);
                return l.version() == 1 && l.region("dublin").state() == RegionState.DRAINING;
            } catch (IOException e) {
                return false;
            }
        }));

        List<String> placed = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String name = "after/" + i;
            client.put(LocalCluster.REGIONS.get(i % 4).equals("dublin") ? "seoul" : LocalCluster.REGIONS.get(i % 4), in,
                    name, "tworandom", 65536, null);
            Manifest m = client.stat("seoul", name);
            m.blocks().forEach(b -> placed.addAll(b.replicas()));
        }
        assertFalse(placed.contains("dublin"), "a new copy went to the draining region: " + placed);
        IOException local = assertThrows(IOException.class,
                () -> client.put("dublin", in, "local-at-dublin", "local", 65536, null));
        assertTrue(local.getMessage().contains("draining"), local.getMessage());

        Layout v1 = layoutAt("seoul");
        String moved = null;
        for (int i = 0; moved == null; i++) {
            if (v1.moved("c/" + i)) {
                moved = "c/" + i;
            }
        }
        String name = moved;
        String owner = v1.ownerOf(name);
        await(30, "the create of " + name + " decided by its new owner " + owner, () -> {
            try {
                client.write("mumbai", in, null, name, "tworandom", 65536, "all", true, null);
                return true;
            } catch (IOException e) {
                return false; // unavailable while the handover completes
            }
        });
        IOException again = assertThrows(IOException.class,
                () -> client.write("saopaulo", in, null, name, "tworandom", 65536, "all", true, null));
        assertEquals(FailureCode.EXISTS, NodeFailure.codeOf(again), again.getMessage());

        // the regions report the layout version with their anti-entropy rounds: until mumbai heard each at version 1,
        // any change is refused for that first (a correct refusal, but not the one this step is about)
        IOException[] active = {null};
        await(30, "mumbai refuses to remove an active region", () -> {
            active[0] = assertThrows(IOException.class, () -> client.cluster("mumbai", "remove", "seoul", "", "", 0, false));
            return !active[0].getMessage().contains("have not reported layout version");
        });
        assertTrue(active[0].getMessage().contains("drain it first"), active[0].getMessage());
        await(60, "dublin drained: no copy of a kept version left there", () -> {
            try {
                return client.cluster("mumbai", "show", "", "", "", 0, false).regions().stream()
                        .anyMatch(g -> g.region().equals("dublin") && g.replicas() == 0 && g.pendingVersions() == 0);
            } catch (IOException e) {
                return false;
            }
        });
        for (int i = 0; i < 6; i++) { // moved off dublin, still readable
            Manifest m = client.get("saopaulo", "before/" + i, work.resolve("out" + i), null);
            m.blocks().forEach(b -> assertFalse(b.replicas().contains("dublin"), b.replicas().toString()));
            assertEquals(Files.mismatch(in, work.resolve("out" + i)), -1L);
        }
        ClusterReply removed = client.cluster("mumbai", "remove", "dublin", "", "", 0, false);
        assertEquals(2, LayoutCodec.decode(removed.layout()).version());
        assertTrue(removed.warnings().isEmpty(), removed.warnings().toString());
        HttpClient http = HttpClient.newHttpClient();
        await(30, "seoul's /metrics at layout version 2", () -> {
            try {
                String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + nodes.cluster().httpPort("seoul") + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
                return body.lines().anyMatch("geoblocks_layout_version 2.0"::equals);
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
        for (String r : List.of("seoul", "saopaulo", "mumbai")) {
            await(30, r + " on layout version 2", () -> {
                try {
                    return layoutAt(r).members().equals(List.of("mumbai", "saopaulo", "seoul"));
                } catch (IOException e) {
                    return false;
                }
            });
        }

        // zones: seoul and mumbai in one zone (`cluster set`); localclosest at seoul then keeps its
        // second copy out of seoul's zone: saopaulo, the only other zone left; a localclosest version at
        // seoul and mumbai from before moves its mumbai copy to saopaulo (the rebalancer's zone move; the
        // fill never moves localclosest copies, so only the zone move can)
        client.put("seoul", in, "zone-repair", "localclosest", 65536, null);
        client.move("seoul", "zone-repair", List.of("seoul", "mumbai")); // a no-op if it is there already
        long movedEpoch = client.stat("seoul", "zone-repair").locEpoch();
        for (String r : List.of("seoul", "mumbai")) {
            await(60, "cluster set " + r + " --zone asia accepted", () -> {
                try {
                    client.cluster("saopaulo", "set", r, "", "asia", -1, false);
                    return true;
                } catch (IOException e) {
                    return false; // refused until every member reported the version before
                }
            });
        }
        for (String r : List.of("seoul", "saopaulo", "mumbai")) {
            await(30, r + " sees seoul and mumbai in zone asia", () -> {
                try {
                    Layout l = layoutAt(r);
                    return l.region("seoul").zone().equals("asia") && l.region("mumbai").zone().equals("asia");
                } catch (IOException e) {
                    return false;
                }
            });
        }
        for (int i = 0; i < 4; i++) {
            client.put("seoul", in, "zoned/" + i, "localclosest", 65536, null);
            for (Manifest.BlockRef b : client.stat("seoul", "zoned/" + i).blocks()) {
                assertEquals(List.of("seoul", "saopaulo"), b.replicas(), "not mumbai, seoul's zone");
            }
        }
        await(60, "the copies of zone-repair spread over zones: seoul and saopaulo", () -> {
            try {
                for (Manifest.BlockRef b : client.stat("saopaulo", "zone-repair").blocks()) {
                    if (!new TreeSet<>(b.replicas()).equals(new TreeSet<>(List.of("seoul", "saopaulo")))) {
                        return false;
                    }
                }
                return true;
            } catch (IOException e) {
                return false;
            }
        });
        Manifest repaired = client.get("mumbai", "zone-repair", work.resolve("zone-repair.out"), null);
        assertEquals(-1L, Files.mismatch(in, work.resolve("zone-repair.out")));
        assertEquals(movedEpoch + 1, repaired.locEpoch(), "one zone move after the client's move");
        await(30, "a set that changes nothing refused as such (once every member reported the version)", () -> {
            IOException e = assertThrows(IOException.class, () -> client.cluster("seoul", "set", "seoul", "", "asia", -1, false));
            return e.getMessage().contains("nothing to change");
        });

        rotateMumbaisKeyUnderLoad(in);

        // a region added with its node's key: the layout names the key (and every node's network checks it)
        String parisKey = NodeIdentity.format(NodeIdentity.generate()
                .getPublic());
        AdminClient admin = AdminClient.of(nodes.config(), "seoul", 10_000);
        await(60, "cluster add paris --key accepted", () -> {
            try {
                admin.call("POST", "/cluster", AdminClient.clusterChange("add", "paris", "127.0.0.1:1", "", 0, false, parisKey));
                return true;
            } catch (IOException | InterruptedException e) {
                return false; // refused until every member reported the version before
            }
        });
        for (String r : List.of("seoul", "saopaulo", "mumbai")) {
            await(30, r + " holds paris's key", () -> {
                try {
                    return parisKey.equals(layoutAt(r).region("paris").key());
                } catch (IOException | NullPointerException e) {
                    return false;
                }
            });
        }
    }

    private static String keyIn(Path file) throws IOException {
        return NodeIdentity.format(NodeIdentity.loadOrCreate(file)
                .getPublic());
    }

    /**
     * Mumbai's node key is rotated while puts at seoul and gets at saopaulo run: cluster rekey at mumbai names its
     * new key in the layout (the old one still accepted), mumbai signs with the new one once every member has it,
     * retire-key ends it; no request fails. Then mumbai restarts, its config still naming the old key: it starts on
     * the layout's key, and a move onto it and a read of that copy go over connections that prove the new key.
     */
    private void rotateMumbaisKeyUnderLoad(Path in) throws Exception {
        Path keyFile = nodes.cluster().dataDir("mumbai").resolve("node.key");
        String before = keyIn(keyFile);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger done = new AtomicInteger();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        Thread load = new Thread(() -> {
            for (int i = 0; running.get(); i++) {
                try {
                    client.put("seoul", in, "rotation/" + i, "tworandom", 65536, null);
                    client.get("saopaulo", "rotation/" + i, work.resolve("rotation.out"), null);
                    done.incrementAndGet();
                } catch (IOException | RuntimeException e) {
                    failures.add(i + ": " + e.getMessage());
                }
            }
        }, "rotation-load");
        load.start();
        AdminClient atMumbai = AdminClient.of(nodes.config(), "mumbai", 10_000);
        String[] next = new String[1];
        await(60, "cluster rekey at mumbai accepted", () -> {
            try {
                Map<?, ?> doc = (Map<?, ?>) MiniJson.parse(
                        atMumbai.call("POST", "/node-key", null));
                for (Object o : (List<?>) doc.get("regions")) {
                    Map<?, ?> g = (Map<?, ?>) o;
                    if (g.get("region").equals("mumbai")) {
                        next[0] = (String) g.get("key");
                        assertEquals(before, g.get("previousKey"), "the old key stays accepted while rotating");
                    }
                }
                return true;
            } catch (IOException | InterruptedException e) {
                return false; // refused until every member reported the version before
            }
        });
        assertTrue(next[0] != null && !next[0].equals(before), "a new key: " + next[0]);
        await(60, "mumbai signs with its new key, once every member has it", () -> {
            try {
                return next[0].equals(keyIn(keyFile));
            } catch (IOException e) {
                return false;
            }
        });
        AdminClient atSeoul = AdminClient.of(nodes.config(), "seoul", 10_000);
        await(60, "cluster retire-key mumbai accepted", () -> {
            try {
                atSeoul.call("POST", "/cluster", "{\"action\":\"retire-key\",\"region\":\"mumbai\"}");
                return true;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
        await(30, "every node holds mumbai's new key alone", () -> List.of("seoul", "saopaulo", "mumbai").stream().allMatch(r -> {
            try {
                Region m = layoutAt(r).region("mumbai");
                return m.key().equals(next[0]) && m.previousKey().isEmpty();
            } catch (IOException e) {
                return false;
            }
        }));
        Thread.sleep(1000); // a few more requests after the rotation ended
        running.set(false);
        load.join(60_000);
        assertEquals(List.of(), failures, "no request failed during the rotation");
        assertTrue(done.get() >= 5, "requests ran during the rotation: " + done.get());
        System.out.printf("LayoutIT: mumbai's key rotated under load: %d put+get pairs, %d failed%n", done.get(),
                failures.size());

        nodes.cluster().kill("mumbai");
        nodes.cluster().startNode("mumbai");
        nodes.cluster().awaitListening("mumbai");
        client.put("seoul", in, "rotation/moved", "local", 65536, null);
        await(60, "a move onto the restarted mumbai", () -> {
            try {
                client.move("seoul", "rotation/moved", List.of("mumbai"));
                return true;
            } catch (IOException e) {
                return false; // until seoul sees mumbai up again
            }
        });
        Manifest m = client.get("seoul", "rotation/moved", work.resolve("rotation-moved.out"), null);
        m.blocks().forEach(b -> assertEquals(List.of("mumbai"), b.replicas()));
        assertEquals(-1L, Files.mismatch(in, work.resolve("rotation-moved.out")));
    }
}
