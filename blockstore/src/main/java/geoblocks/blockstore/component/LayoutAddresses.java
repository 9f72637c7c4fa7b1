package geoblocks.blockstore.component;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a node's messages go under one cluster layout: each member region's address (this node's
 * own as it is bound), the region of each member address (whom messages are accepted from), and
 * where regions the layout removed were (messages may still go there; none is accepted from
 * there). Immutable; a new layout makes a new one ({@link #of}). A member whose address does not
 * resolve is left out and named in {@link #unreachable()}.
 */
final class LayoutAddresses {
    private final Map<String, NetAddress> addresses;
    private final Map<String, NetAddress> former;
    private final Map<NetAddress, String> byAddress;
    private final List<String> regions;
    private final List<String> peers;
    private final List<String> unreachable;

    private LayoutAddresses(Map<String, NetAddress> addresses, Map<String, NetAddress> former,
            Map<NetAddress, String> byAddress, String self, List<String> unreachable) {
        this.addresses = addresses;
        this.former = former;
        this.byAddress = byAddress;
        this.regions = List.copyOf(addresses.keySet());
        List<String> others = new ArrayList<>(regions);
        others.remove(self);
        this.peers = List.copyOf(others);
        this.unreachable = List.copyOf(unreachable);
    }

    /** The addresses of layout {@code l} as node {@code region} at {@code self} sees them. */
    static LayoutAddresses of(Layout l, String region, NetAddress self) {
        Map<String, NetAddress> a = new LinkedHashMap<>();
        Map<NetAddress, String> back = new HashMap<>();
        List<String> problems = new ArrayList<>();
        l.addresses().forEach((r, hp) -> {
            try {
                NetAddress n = r.equals(region) ? self : parse(hp);
                a.put(r, n);
                back.put(n, r);
            } catch (IllegalArgumentException e) {
                problems.add("region " + r + " of layout version " + l.version() + " is unreachable: " + e.getMessage());
            }
        });
        Map<String, NetAddress> gone = new HashMap<>();
        l.regions().forEach((r, g) -> {
            if (!g.member()) {
                try {
                    gone.put(r, parse(g.address()));
                } catch (IllegalArgumentException e) {
                    // unresolvable: nothing is sent there
                }
            }
        });
        return new LayoutAddresses(a, gone, back, region, problems);
    }

    /**
     * {@code a} as {@code host:port}, the form a {@link Layout} keeps: IPv6 in brackets, in the short form
     * of RFC 5952 ({@code [fd31:231::2]:47100}), as {@code cluster add} sends it (one address, one string).
     */
    static String hostPort(NetAddress a) {
        return a.toString();
    }

    private static NetAddress parse(String hostPort) {
        return NetAddress.parse(hostPort);
    }

    /** Where region {@code r} is: a member's address, else where a removed region was. */
    NetAddress addressOf(String r) {
        NetAddress a = addressOrNull(r);
        if (a == null) {
            throw new IllegalArgumentException("unknown region '" + r + "'; known: " + addresses.keySet());
        }
        return a;
    }

    /** As {@link #addressOf}, or null for a region this book does not know. */
    NetAddress addressOrNull(String r) {
        NetAddress a = addresses.get(r);
        return a != null ? a : former.get(r); // a removed region's, while work for it was under way
    }

    /** The region of a member's address, empty for anyone else (a removed region's included). */
    Optional<String> regionOf(NetAddress address) {
        return Optional.ofNullable(byAddress.get(address));
    }

    /** The region a removed member's node was at {@code address}, empty for anyone else. */
    Optional<String> formerRegionOf(NetAddress address) {
        return former.entrySet().stream().filter(e -> e.getValue().equals(address)).map(Map.Entry::getKey).findFirst();
    }

    /** Every member region with a resolved address, this node's included, in layout order. */
    List<String> regions() {
        return regions;
    }

    /** Every member region but this node's. */
    List<String> peers() {
        return peers;
    }

    /** Why members were left out (their addresses did not resolve). */
    List<String> unreachable() {
        return unreachable;
    }
}
