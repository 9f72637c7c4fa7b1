package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.ClientOp.Committed;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Failed;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The acknowledgement rule of an upload, without a node: what the client hears after the publication. */
class UploadAcksTest {
    private static final List<String> PEERS = List.of("dublin", "mumbai", "seoul");

    private static Manifest at(List<String> replicas) {
        return new Manifest("f", "id", 10, 10, "tworandom", "saopaulo", 1, List.of(new Manifest.BlockRef(10, 7, replicas)),
                new Version(5, "saopaulo"), 0, false, Map.of());
    }

    private static FileOp blocks(List<String> replicas, boolean ackLocal, List<String> unreached) {
        return UploadAcks.blocks(1, "f", at(replicas), "saopaulo", ackLocal, PEERS, unreached, "");
    }

    @Test
    void ackAll_needsOneOtherRegionsCopyOfTheManifest_whenBlocksAreElsewhere() {
        Failed alone = assertInstanceOf(Failed.class, blocks(List.of("saopaulo", "dublin"), false, PEERS));
        assertEquals(FailureCode.OUTCOME_UNKNOWN, alone.code());
        assertTrue(alone.error().contains("[dublin] hold its blocks"), alone.error());
        Committed one = assertInstanceOf(Committed.class, blocks(List.of("saopaulo", "dublin"), false, List.of("dublin", "seoul")));
        assertEquals("stored; manifest not yet at [dublin, seoul]", one.info(), "mumbai's copy is enough; the lagging are named");
        assertEquals("stored", assertInstanceOf(Committed.class, blocks(List.of("saopaulo", "dublin"), false, List.of())).info());
    }

    @Test
    void ackLocal_orBlocksHereAlone_areCommittedWhoeverAnswered() {
        assertInstanceOf(Committed.class, blocks(List.of("saopaulo", "dublin"), true, PEERS), "ack local: copies still owed");
        assertInstanceOf(Committed.class, blocks(List.of("saopaulo"), false, PEERS), "no block elsewhere to protect");
    }

    @Test
    void inline_needsEveryRequiredRegion() {
        Manifest m = at(List.of("saopaulo")); // the rule reads only its version here
        Failed f = assertInstanceOf(Failed.class, UploadAcks.inline(1, "f", m, "tworandom", List.of("saopaulo", "dublin"),
                Set.of("saopaulo"), List.of("dublin")));
        assertEquals(FailureCode.OUTCOME_UNKNOWN, f.code());
        assertInstanceOf(Committed.class, UploadAcks.inline(1, "f", m, "tworandom", List.of("saopaulo", "dublin"),
                Set.of("saopaulo"), List.of("mumbai")));
    }

    @Test
    void standIn_isARegionNotChosenThatHoldsOrConfirmedTheInlineVersion() {
        List<String> chosen = List.of("saopaulo", "dublin");
        assertTrue(UploadAcks.standIn("seoul", chosen, Set.of("saopaulo"), PEERS, List.of("dublin")), "seoul confirmed");
        assertTrue(!UploadAcks.standIn("seoul", chosen, Set.of("saopaulo"), PEERS, List.of("dublin", "seoul")),
                "seoul did not confirm either");
        assertTrue(!UploadAcks.standIn("saopaulo", chosen, Set.of("saopaulo"), PEERS, List.of("dublin")),
                "already chosen: it cannot count twice");
        assertTrue(!UploadAcks.standIn(null, chosen, Set.of("saopaulo"), PEERS, List.of("dublin")));
        Committed c = assertInstanceOf(Committed.class, UploadAcks.inline(1, "f", at(List.of("saopaulo")), "tworandom",
                List.of("saopaulo", "seoul"), Set.of("saopaulo"), List.of("dublin"), Map.of("dublin", "seoul")));
        assertEquals("stored; manifest not yet at [dublin]; dublin did not confirm it: its copy is at seoul", c.info());
    }
}
