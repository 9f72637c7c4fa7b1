package geoblocks.blockstore.core.layout;

import geoblocks.net.HostPort;

/**
 * A change an operator applies to the {@link Layout} ({@code client cluster add | drain | remove}).
 * {@link LayoutChanges#apply} checks it against the current layout and makes the next version.
 */
public sealed interface LayoutChange {
    /** The region the change is about. */
    String region();

    /**
     * Add region {@code region} at {@code address} (or re-add a removed one), active, its node proving
     * {@code key} (empty: the layout names none). Zone null: the region id. The address is kept in the
     * spelling addresses print in ({@link geoblocks.net.HostPort}: IPv6 in brackets, in its short form), so
     * that one address is one string in the layout, which compares them as text; an unbracketed IPv6 address
     * is refused, naming the bracketed form.
     */
    record Add(String region, String address, String zone, long capacityBytes, String key) implements LayoutChange {
        public Add {
            Region.checkId(region);
            Region.checkAddress(address);
            address = HostPort.parse(address).toString();
            Region.checkKey(key);
            if (capacityBytes < 0) {
                throw new IllegalArgumentException("capacity must not be negative, was " + capacityBytes);
            }
        }

        public Add(String region, String address, String zone, long capacityBytes) {
            this(region, address, zone, capacityBytes, "");
        }

        public Add(String region, String address) {
            this(region, address, null, 0);
        }
    }

    /** Stop placing on {@code region} and hand its names to the other owners; it keeps serving what it holds. */
    record Drain(String region) implements LayoutChange {
        public Drain {
            Region.checkId(region);
        }
    }

    /**
     * Change a member's zone ({@code zone}; null: keep it) or declared capacity ({@code capacityBytes};
     * negative: keep it, 0: not declared). Its state, address and names stay.
     */
    record Set(String region, String zone, long capacityBytes) implements LayoutChange {
        public Set {
            Region.checkId(region);
            if (zone == null && capacityBytes < 0) {
                throw new IllegalArgumentException("cluster set needs a zone or a capacity to change");
            }
        }
    }

    /**
     * Give member {@code region}'s node the key {@code key}; its current key stays accepted as the previous one
     * until {@link RetireKey} (a rotation without downtime). {@code unnamed}: the key its peers check when the
     * layout names none (the config's; empty: none), kept as the previous one in that case.
     */
    record Rekey(String region, String key, String unnamed) implements LayoutChange {
        public Rekey {
            Region.checkId(region);
            Region.checkKey(key);
            Region.checkKey(unnamed);
            if (key.isEmpty()) {
                throw new IllegalArgumentException("rekey needs the new key");
            }
        }

        public Rekey(String region, String key) {
            this(region, key, "");
        }
    }

    /** Stop accepting member {@code region}'s previous key (the rotation's end). */
    record RetireKey(String region) implements LayoutChange {
        public RetireKey {
            Region.checkId(region);
        }
    }

    /** Take {@code region} out of the cluster (normally once drained). */
    record Remove(String region) implements LayoutChange {
        public Remove {
            Region.checkId(region);
        }
    }
}
