package geoblocks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersionRangeTest {
    /** Every range within versions 1..6. */
    private static List<VersionRange> all() {
        List<VersionRange> out = new ArrayList<>();
        for (int min = 1; min <= 6; min++) {
            for (int max = min; max <= 6; max++) {
                out.add(new VersionRange(min, max));
            }
        }
        return out;
    }

    @Test
    void everyPair_agreesOnTheHighestVersionBothHold_fromEitherEnd() {
        int pairs = 0;
        for (VersionRange a : all()) {
            for (VersionRange b : all()) {
                int expected = -1;
                for (int v = 6; v >= 1 && expected < 0; v--) {
                    if (a.contains(v) && b.contains(v)) {
                        expected = v;
                    }
                }
                assertEquals(expected, a.highestShared(b), a + " with " + b);
                assertEquals(expected, b.highestShared(a), b + " with " + a);
                pairs++;
            }
        }
        assertEquals(21 * 21, pairs);
    }

    @Test
    void ownAndPreviousRelease_alwaysMeetTheNeighbours() {
        VersionRange v4 = new VersionRange(3, 4);
        assertEquals(3, v4.highestShared(new VersionRange(2, 3)), "one release back");
        assertEquals(4, v4.highestShared(new VersionRange(4, 5)), "one release on");
        assertEquals(-1, v4.highestShared(new VersionRange(1, 2)), "two releases back");
        assertEquals(-1, v4.highestShared(new VersionRange(5, 6)), "two releases on");
    }

    @Test
    void mismatch_namesBothRangesAndWhichEndIsOlder_onEachSide() {
        VersionRange ours = new VersionRange(3, 4);
        VersionRange older = new VersionRange(1, 2);
        String m = VersionRange.mismatch("file protocol", ours, older);
        assertTrue(m.startsWith("file protocol: this node speaks version 3-4, the peer 1-2"), m);
        assertTrue(m.contains("the peer runs an older geoblocks") && m.contains("upgrade the peer"), m);
        String theirs = VersionRange.mismatch("file protocol", older, ours);
        assertTrue(theirs.contains("this node speaks version 1-2, the peer 3-4"), theirs);
        assertTrue(theirs.contains("the peer runs a newer geoblocks") && theirs.contains("upgrade this node"), theirs);
    }

    @Test
    void atMost_pinsTheTop_andRefusesOutside() {
        assertEquals(VersionRange.only(3), new VersionRange(3, 4).atMost(3));
        String m = assertThrows(IllegalArgumentException.class, () -> new VersionRange(3, 4).atMost(2)).getMessage();
        assertTrue(m.contains("outside"), m);
    }

    @Test
    void badRanges_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> new VersionRange(4, 3));
        assertThrows(IllegalArgumentException.class, () -> new VersionRange(-1, 3));
        assertThrows(IllegalArgumentException.class, () -> new VersionRange(1, 256));
    }

    @Test
    void peerVersions_useTheAgreedVersion_elseTheLowestWeSpeak_andTheLatestHandshakeWins() {
        PeerVersions v = new PeerVersions();
        NetAddress peer = NetAddress.of("10.0.0.1", 1);
        VersionRange ours = new VersionRange(3, 4);
        assertEquals(3, v.versionFor(peer, 100, ours), "no handshake yet: the lowest, which every peer in range reads");
        int[] agreed = new int[256];
        Arrays.fill(agreed, -1);
        agreed[100] = 4;
        v.agreed(peer, agreed);
        assertEquals(4, v.versionFor(peer, 100, ours));
        assertEquals(VersionRange.only(2).min(), v.versionFor(peer, 110, VersionRange.only(2)), "a family not agreed");
        agreed[100] = 3; // the peer was rolled back: its next handshake agrees 3
        v.agreed(peer, agreed);
        assertEquals(3, v.versionFor(peer, 100, ours));
        assertEquals(3, v.agreedWith(peer, 100));
        assertEquals(-1, v.agreedWith(NetAddress.of("10.0.0.2", 1), 100));
        agreed[100] = 4;
        v.agreed(peer, agreed);
        v.forget(peer); // its connection closed: it may come back as an older build
        assertEquals(3, v.versionFor(peer, 100, ours), "until the next handshake, the lowest again");
    }
}
