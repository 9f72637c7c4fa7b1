package geoblocks.blockstore.core.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.ClusterVersion;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class ClusterUpgradeTest {
    static final ClusterVersion V2 = ClusterVersion.V0_2;
    static final ClusterVersion V3 = new ClusterVersion(0, 3);
    static final ClusterVersion V4 = new ClusterVersion(0, 4);

    /** seoul, dublin active; mumbai draining (a member: it still serves); a removed region that never counts. */
    static Layout cluster() {
        Layout l = LayoutCodecTest.sample();
        l = LayoutChanges.apply(l, new LayoutChange.Add("tokyo", "10.0.0.9:7000"), Map.of("seoul", 2L, "dublin", 2L,
                "mumbai", 2L), Set.of(), false).layout();
        return LayoutChanges.apply(l, new LayoutChange.Remove("tokyo"), Map.of("seoul", 3L, "dublin", 3L, "mumbai", 3L,
                "tokyo", 3L), Set.of(), true).layout();
    }

    @Test
    void raise_withEveryMemberOnTheTarget_takesTheNextLayoutVersion_andKeepsEverythingElse() {
        Layout l = cluster();
        Layout up = ClusterUpgrade.raise(l, V3, Map.of("seoul", V3, "dublin", V3, "mumbai", V4));
        assertEquals(V3, up.clusterVersion());
        assertEquals(l.version() + 1, up.version());
        assertEquals(l.regions(), up.regions());
        assertEquals(l.owners(), up.owners());
        assertEquals(l.ownersBefore(), up.ownersBefore());
        assertTrue(up.newerThan(l));
    }

    @Test
    void raise_withAMemberOnTheOlderRelease_orDown_isRefused_namingEach() {
        Layout l = cluster();
        String m = assertThrows(IllegalStateException.class, () -> ClusterUpgrade.raise(l, V3,
                Map.of("seoul", V3, "dublin", V2))).getMessage();
        assertTrue(m.contains("dublin runs 0.2 (upgrade it)"), m);
        assertTrue(m.contains("mumbai is down or not connected"), m);
        assertTrue(!m.contains("tokyo"), "a removed region is no member: " + m);
    }

    @Test
    void raise_neverLowers_norRepeats() {
        Layout up = ClusterUpgrade.raise(cluster(), V3, Map.of("seoul", V3, "dublin", V3, "mumbai", V3));
        String m = assertThrows(IllegalArgumentException.class, () -> ClusterUpgrade.raise(up, V3,
                Map.of("seoul", V3, "dublin", V3, "mumbai", V3))).getMessage();
        assertTrue(m.contains("already 0.3: nothing to finalize"), m);
        m = assertThrows(IllegalArgumentException.class, () -> ClusterUpgrade.raise(up, V2, Map.of())).getMessage();
        assertTrue(m.contains("already 0.3, above 0.2"), m);
    }

    /** Later changes keep the raised version; the codec keeps it; the previous release's format stays until it rises. */
    @Test
    void theRaisedVersion_survivesChanges_andTheCodec_whileA0_2LayoutKeepsItsFormat() throws Exception {
        Layout l = cluster();
        byte[] before = LayoutCodec.encode(l);
        assertEquals(1, before[2], "at 0.2 a layout is written as the previous release wrote it");
        Layout up = ClusterUpgrade.raise(l, V3, Map.of("seoul", V3, "dublin", V3, "mumbai", V3));
        byte[] raised = LayoutCodec.encode(up);
        assertEquals(3, raised[2]);
        assertArrayEquals(new byte[] {0, 3}, Arrays.copyOfRange(raised, raised.length - 6, raised.length - 4),
                "major, minor before the checksum");
        Layout back = LayoutCodec.decode(raised);
        assertEquals(up, back);
        assertEquals(V3, back.clusterVersion());
        Layout changed = LayoutChanges.apply(up, new LayoutChange.Set("seoul", "eu", -1), Map.of("seoul", up.version(),
                "dublin", up.version(), "mumbai", up.version()), Set.of(), false).layout();
        assertEquals(V3, changed.clusterVersion());
        assertTrue(up.digest() != l.digest());
    }

    @Test
    void aFormat3LayoutAt0_2_isRefusedAsCorrupt() {
        Layout up = ClusterUpgrade.raise(cluster(), V3, Map.of("seoul", V3, "dublin", V3, "mumbai", V3));
        byte[] b = LayoutCodec.encode(up);
        b[b.length - 5] = 2; // the minor: 0.2, never written in format 3
        CRC32C crc = new CRC32C();
        crc.update(b, 0, b.length - 4);
        ByteBuffer.wrap(b, b.length - 4, 4).putInt((int) crc.getValue());
        String m = assertThrows(CorruptLayoutException.class, () -> LayoutCodec.decode(b)).getMessage();
        assertTrue(m.contains("names cluster version 0.2"), m);
    }

    @Test
    void note_saysWhatFinalizeWouldDo() {
        Layout l = cluster();
        assertEquals("every member runs 0.3 or later: `cluster finalize` raises it to 0.3",
                ClusterUpgrade.note(l, V3, Map.of("seoul", V3, "dublin", V3, "mumbai", V3)));
        String d = ClusterUpgrade.note(l, V3, Map.of("seoul", V3, "dublin", V2, "mumbai", V3));
        assertTrue(d.startsWith("0.3 waits: dublin runs 0.2 (upgrade it)"), d);
        assertEquals("", ClusterUpgrade.note(l, V2, Map.of()), "a 0.2 node has nothing to finalize");
    }

    @Test
    void tooOld_namesAReleaseBelowTheStoredClusterVersion_only() {
        Layout up = ClusterUpgrade.raise(cluster(), V3, Map.of("seoul", V3, "dublin", V3, "mumbai", V3));
        String m = ClusterUpgrade.tooOld(up, V2);
        assertTrue(m.startsWith("this node's cluster runs at cluster version 0.3"), m);
        assertTrue(m.contains("above release 0.2 which this build runs") && m.contains("Run 0.3 or later"), m);
        assertNull(ClusterUpgrade.tooOld(up, V3));
        assertNull(ClusterUpgrade.tooOld(up, V4));
        assertNull(ClusterUpgrade.tooOld(cluster(), V2));
        assertNull(ClusterUpgrade.tooOld(null, V2), "a new data directory has no layout yet");
    }
}
