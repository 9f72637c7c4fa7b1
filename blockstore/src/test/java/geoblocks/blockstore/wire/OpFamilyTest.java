package geoblocks.blockstore.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every op the codecs know enters a node by exactly one door ({@link OpFamily}): the families' lists
 * together are every op record once, the codec's table has no op outside them, and the admin family
 * holds every admin operation.
 */
class OpFamilyTest {
    @Test
    void everyOpTheCodecsKnow_isInExactlyOneFamily() {
        List<Class<?>> listed = new ArrayList<>();
        for (OpFamily f : OpFamily.values()) {
            listed.addAll(f.ops());
        }
        assertEquals(listed.size(), new HashSet<>(listed).size(), "an op listed twice: " + listed);
        assertEquals(new HashSet<>(FileOps.records()), new HashSet<>(listed));
        List<OpRow<?>> rows = new ArrayList<>(ClientCodec.ROWS);
        rows.addAll(PeerCodec.ROWS);
        rows.addAll(BenchCodec.ROWS);
        rows.addAll(FileCodec.SHARED);
        for (OpRow<?> row : rows) {
            assertTrue(listed.contains(row.type()), row.type().getSimpleName() + " has a tag but no family");
        }
        for (Class<? extends FileOp> c : FileOps.records()) {
            assertEquals(1, countFamilies(c), c.getSimpleName());
        }
    }

    private static int countFamilies(Class<?> c) {
        int n = 0;
        for (OpFamily f : OpFamily.values()) {
            n += f.ops().contains(c) ? 1 : 0;
        }
        return n;
    }

    @Test
    void theAdminFamily_holdsEveryAdminOperation_andTheirAnswers() {
        assertEquals(OpFamily.ADMIN, OpFamily.of(new ClientOp.MoveReq(1, "a", List.of("x"))));
        assertEquals(OpFamily.ADMIN, OpFamily.of(new ClientOp.PurgeReq(1, "a", "v")));
        assertEquals(OpFamily.ADMIN, OpFamily.of(ClientOp.ClusterReq.class));
        assertEquals(OpFamily.ADMIN, OpFamily.of(ClientOp.ClusterReply.class));
        assertEquals(Set.of(ClientOp.ClusterReq.class, ClientOp.ClusterReply.class, ClientOp.MoveReq.class,
                ClientOp.PurgeReq.class), new HashSet<>(OpFamily.ADMIN.ops()));
    }

    @Test
    void familiesFollowWhoSpeaks() {
        assertEquals(OpFamily.CLIENT, OpFamily.of(new ClientOp.GetBegin(1, "a")));
        assertEquals(OpFamily.CLIENT, OpFamily.of(new FileOp.Unknown(1, 200)), "answered UNSUPPORTED to anyone");
        assertEquals(OpFamily.PEER, OpFamily.of(new PeerOp.FetchBlock(1, "b")));
        assertEquals(OpFamily.PEER, OpFamily.of(FileOp.ManifestPart.class));
        assertEquals(OpFamily.BENCH, OpFamily.of(BenchOp.NetBenchOpen.class));
    }

    @Test
    void aClassInNoFamily_isAnError_thatNamesIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OpFamily.of(String.class));
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }
}
