package geoblocks.node.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.Background;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.blockstore.wire.ClientOp.PeerRtt;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import geoblocks.node.s3.migration.PendingMigration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code status --json}: transfers per transport and class, and the background (LEDBAT) part per peer
 * region; {@code stat --json}: a DataBridge object's migration.
 */
class JsonTest {
    static ClientPort.FileStat stat(Map<String, String> meta, List<String> replicas) {
        List<Manifest.BlockRef> blocks = List.of(new Manifest.BlockRef(4, 1, replicas), new Manifest.BlockRef(2, 2, replicas));
        Manifest m = new Manifest("b/k", "f-b/k", 6, 4, "local", "seoul", 1, blocks,
                new Version(HybridClock.of(1, 0), "seoul"), 0, false, meta);
        return new ClientPort.FileStat(m, true, Map.of());
    }

    @Test
    void stat_ofARedirectedObject_saysWhereItWasStoredWhereItGoesAndWhetherItIsThere() {
        Map<String, String> meta = Map.of(PendingMigration.META, "dublin,mumbai");
        String moving = Json.stat(stat(meta, List.of("seoul")));
        assertTrue(moving.contains("\"migration\":{\"stored_at\":\"seoul\",\"to\":[\"dublin\",\"mumbai\"],\"done\":false}"), moving);
        String home = Json.stat(stat(meta, List.of("dublin", "mumbai")));
        assertTrue(home.contains("\"done\":true}"), home);
        String plain = Json.stat(stat(Map.of(), List.of("seoul")));
        assertTrue(!plain.contains("migration"), plain);
    }

    @Test
    void status_rendersTransfersAndBackgroundPerPeer() {
        StatusReply r = new StatusReply(1, "seoul", List.of(new PeerRtt("mumbai", 160.5)), 0, 0, 3, 1, 0,
                new Transfers(10, 20, 30, 40, 4, 0), new Background(262_175, 2, List.of(
                        new LedbatPeer("dublin", false, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, 0),
                        new LedbatPeer("mumbai", true, 4, 1_048_576, 500_000, 250_000, 97.5, 80.25, 258.0, 12, 1392))));
        String json = Json.status(r);
        assertEquals("{\"region\":\"seoul\",\"peers\":[{\"region\":\"mumbai\",\"up\":true,\"rtt_ms\":160.5}],"
                + "\"refused\":{\"malformed\":0,\"unauthenticated\":0},\"scrubber\":{\"scrubbed\":3,\"repaired\":1,"
                + "\"unrepairable\":0},\"transfers\":{\"ledbat\":{\"bytes_sent\":30,\"bytes_received\":40},"
                + "\"tcp\":{\"bytes_sent\":10,\"bytes_received\":20},"
                + "\"foreground\":{\"bytes_sent\":6,\"bytes_received\":20},"
                + "\"background\":{\"bytes_sent\":34,\"bytes_received\":40}},"
                + "\"background\":{\"queued_bytes\":262175,\"queued_copies\":2,\"peers\":{"
                + "\"dublin\":{\"active\":false,\"streams\":0,\"cwnd_bytes\":0,\"queued_bytes\":0,\"in_flight_bytes\":0,"
                + "\"queuing_delay_ms\":null,\"base_delay_ms\":null,\"rtt_ms\":null,\"retransmissions\":0,\"path_mtu_bytes\":null,\"stalled_for_ms\":0},"
                + "\"mumbai\":{\"active\":true,\"streams\":4,\"cwnd_bytes\":1048576,\"queued_bytes\":500000,"
                + "\"in_flight_bytes\":250000,\"queuing_delay_ms\":97.5,\"base_delay_ms\":80.25,\"rtt_ms\":258.0,"
                + "\"retransmissions\":12,\"path_mtu_bytes\":1392,\"stalled_for_ms\":0}}},\"gc\":{\"collected_blocks\":0,\"collected_bytes\":0,\"passes\":0,"
                + "\"running\":false,\"pass\":{\"checked\":0,\"collected\":0,\"in_flight\":0},"
                + "\"last_pass_end_ms\":null,\"settled_since_ms\":null,\"moves\":0},\"versions\":null}", json);
    }

    @Test
    void status_rendersTheBlockCollector() {
        StatusReply r = new StatusReply(1, "x", List.of(), 0, 0, 0, 0, 0, new Transfers(0, 0, 0, 0, 0, 0),
                new Background(0, 0, List.of()), new ClientOp.Gc(12, 786_432, 3, true, 500, 4, 2,
                        1_800_000_000_000L, 1_799_999_000_000L, 1));
        assertTrue(Json.status(r).contains(",\"gc\":{\"collected_blocks\":12,\"collected_bytes\":786432,\"passes\":3,"
                + "\"running\":true,\"pass\":{\"checked\":500,\"collected\":4,\"in_flight\":2},"
                + "\"last_pass_end_ms\":1800000000000,\"settled_since_ms\":1799999000000,\"moves\":1},"), Json.status(r));
    }

    /** File protocol 5: what the members run; a 0.2.x node reports none (null). */
    @Test
    void status_rendersTheMembersVersions() {
        StatusReply r = new StatusReply(1, "x", List.of(), 0, 0, 0, 0, 0, new Transfers(0, 0, 0, 0, 0, 0),
                new Background(0, 0, List.of()), ClientOp.Gc.NONE,
                new ClientOp.Versions("0.3.0 (commit ab)", "0.2", "note", List.of(
                        new ClientOp.MemberBuild("x", "0.3.0 (commit ab)", -1),
                        new ClientOp.MemberBuild("y", "0.2.x", 4))));
        assertTrue(Json.status(r).endsWith(",\"versions\":{\"build\":\"0.3.0 (commit ab)\",\"cluster_version\":\"0.2\","
                + "\"finalize_note\":\"note\",\"members\":{\"x\":{\"build\":\"0.3.0 (commit ab)\",\"file_protocol\":null},"
                + "\"y\":{\"build\":\"0.2.x\",\"file_protocol\":4}}}}"), Json.status(r));
    }

    @Test
    void status_withoutBackgroundTraffic_hasAnEmptyPeerMap() {
        StatusReply r = new StatusReply(1, "x", List.of(), 0, 0, 0, 0, 0, new Transfers(0, 0, 0, 0, 0, 0),
                new Background(0, 0, List.of()));
        assertTrue(Json.status(r).contains("\"background\":{\"queued_bytes\":0,\"queued_copies\":0,\"peers\":{}},"),
                Json.status(r));
    }

    @Test
    void stat_ofAnInlineObject_saysSo_andListsNoBlocks() {
        Manifest m = Manifest.inline("b/k", "f1", 1 << 20, "local", "seoul", 5, new Version(9,
                "seoul"), Map.of(), new byte[] {1, 2, 3});
        String json = Json.stat(new ClientPort.FileStat(m, true, Map.of()));
        assertTrue(json.contains("\"inline\":true,\"inline_crc32c\":\""), json);
        assertTrue(json.endsWith("\"blocks\":[]}"), json);
        assertTrue(Json.stat(stat(Map.of(), List.of("seoul"))).contains("\"inline\":false,\"blocks\":["));
    }
}
