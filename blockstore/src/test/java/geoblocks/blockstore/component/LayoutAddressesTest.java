package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.Region;
import geoblocks.blockstore.core.layout.RegionState;
import geoblocks.net.NetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Where a node's messages go under a layout: members, the node's own bound address, removed regions, bad addresses. */
class LayoutAddressesTest {
    private static final NetAddress SELF = NetAddress.of("127.0.0.1", 9001);

    private static Layout layout(Region... rs) {
        Map<String, Region> m = new TreeMap<>();
        for (Region r : rs) {
            m.put(r.id(), r);
        }
        return new Layout(3, m, List.of(), 0);
    }

    private static Region region(String id, String address, RegionState state) {
        return new Region(id, address, id, 0, state);
    }

    @Test
    void members_areAddressedBothWays_andThisNodeIsWhereItIsBound() {
        LayoutAddresses a = LayoutAddresses.of(layout(region("dublin", "10.0.0.2:47102", RegionState.ACTIVE),
                region("seoul", "0.0.0.0:47101", RegionState.ACTIVE),
                region("mumbai", "[::1]:47104", RegionState.DRAINING)), "seoul", SELF);
        assertEquals(List.of("dublin", "mumbai", "seoul"), a.regions());
        assertEquals(List.of("dublin", "mumbai"), a.peers());
        assertEquals(SELF, a.addressOf("seoul"), "its own address as bound, not as the layout writes it");
        assertEquals(NetAddress.of("10.0.0.2", 47102), a.addressOf("dublin"));
        assertEquals(NetAddress.of("::1", 47104), a.addressOf("mumbai"), "a bracketed IPv6 address");
        assertEquals(Optional.of("dublin"), a.regionOf(NetAddress.of("10.0.0.2", 47102)));
        assertEquals(Optional.empty(), a.regionOf(NetAddress.of("10.0.0.9", 47102)));
        assertEquals(List.of(), a.unreachable());
    }

    @Test
    void aRemovedRegion_canStillBeSentTo_butIsNoPeer_andNoMessageIsTakenFromIt() {
        LayoutAddresses a = LayoutAddresses.of(layout(region("seoul", "127.0.0.1:9001", RegionState.ACTIVE),
                region("saopaulo", "10.0.0.3:47103", RegionState.REMOVED)), "seoul", SELF);
        assertEquals(List.of(), a.peers());
        assertEquals(NetAddress.of("10.0.0.3", 47103), a.addressOf("saopaulo"), "work for it under way may finish");
        assertEquals(Optional.empty(), a.regionOf(NetAddress.of("10.0.0.3", 47103)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.addressOf("tokyo"));
        assertTrue(e.getMessage().startsWith("unknown region 'tokyo'"), e.getMessage());
    }

    @Test
    void aMemberWhoseAddressDoesNotResolve_isLeftOut_andNamed() {
        LayoutAddresses a = LayoutAddresses.of(layout(region("seoul", "127.0.0.1:9001", RegionState.ACTIVE),
                region("dublin", "[::zz]:47102", RegionState.ACTIVE)), "seoul", SELF);
        assertEquals(List.of("seoul"), a.regions());
        assertEquals(1, a.unreachable().size());
        assertTrue(a.unreachable().get(0).startsWith("region dublin of layout version 3 is unreachable"),
                a.unreachable().toString());
    }

    @Test
    void hostPort_writesTheFormALayoutKeeps() {
        assertEquals("127.0.0.1:9001", LayoutAddresses.hostPort(SELF));
        assertEquals("[::1]:47104", LayoutAddresses.hostPort(NetAddress.of("::1", 47104)));
        assertEquals("[fd31:231::2]:47100", LayoutAddresses.hostPort(NetAddress.of("fd31:231:0:0:0:0:0:2", 47100)),
                "IPv6 in brackets, in the short form (RFC 5952) a user types");
    }
}
