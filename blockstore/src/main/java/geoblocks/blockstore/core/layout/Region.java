package geoblocks.blockstore.core.layout;

import java.util.regex.Pattern;

/**
 * One region of a {@link Layout}: its id, its node's address ({@code host:port}), its zone, its
 * declared capacity in bytes (0: not declared), its state, its node's public key ({@code ed25519:}
 * and 44 characters of base64; empty: the layout names none, and the config's
 * {@code geoblocks.cluster.regions[].key}, if any, is the one its peers check), and while that key is
 * being rotated, the key before it ({@code previousKey}, still accepted; empty otherwise). Invariant: the
 * id matches {@link #ID}, the address has a host and a port in 1..65535, the zone is not blank, the
 * capacity is not negative, the keys are empty or well-formed, and a previous key comes with a key.
 */
public record Region(String id, String address, String zone, long capacityBytes, RegionState state, String key,
        String previousKey) {
    /** What a node key looks like in a layout (the network's {@code NodeIdentity} format). */
    public static final String KEY = "ed25519:[A-Za-z0-9+/]{43}=";
    private static final Pattern KEY_PATTERN = Pattern.compile(KEY);
    /** What a region id may be (the cluster config's rule): 1 to 32 of a-z, 0-9 and -, not starting with -. */
    public static final String ID = "[a-z0-9][a-z0-9-]{0,31}";
    private static final Pattern ID_PATTERN = Pattern.compile(ID);

    public Region {
        checkId(id);
        checkAddress(address);
        if (zone == null || zone.isBlank() || zone.length() > 64) {
            throw new IllegalArgumentException("zone of region '" + id + "' must be 1 to 64 characters, was '" + zone + "'");
        }
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("capacity of region '" + id + "' must not be negative, was " + capacityBytes);
        }
        if (state == null) {
            throw new IllegalArgumentException("region '" + id + "' needs a state");
        }
        checkKey(key);
        checkKey(previousKey);
        if (!previousKey.isEmpty() && (key.isEmpty() || key.equals(previousKey))) {
            throw new IllegalArgumentException("region '" + id + "' has a previous key without a new one");
        }
    }

    /** A region whose key the layout does not name. */
    public Region(String id, String address, String zone, long capacityBytes, RegionState state) {
        this(id, address, zone, capacityBytes, state, "", "");
    }

    /** A region with key {@code key} and no key being rotated out. */
    public Region(String id, String address, String zone, long capacityBytes, RegionState state, String key) {
        this(id, address, zone, capacityBytes, state, key, "");
    }

    /** Throws when {@code key} is neither empty nor a node key ({@link #KEY}). */
    public static void checkKey(String key) {
        if (key == null || !(key.isEmpty() || KEY_PATTERN.matcher(key).matches())) {
            throw new IllegalArgumentException("a node key looks like ed25519: and 44 characters of base64, was '" + key + "'");
        }
    }

    /** Throws when {@code id} is not a valid region id. */
    public static void checkId(String id) {
        if (id == null || !ID_PATTERN.matcher(id).matches()) {
            throw new IllegalArgumentException("region id must match " + ID + ", was '" + id + "'");
        }
    }

    /** Throws when {@code address} does not look like {@code host:port} with a port in 1..65535. */
    public static void checkAddress(String address) {
        int colon = address == null ? -1 : address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1 || address.length() > 255) {
            throw new IllegalArgumentException("address must look like host:port, was '" + address + "'");
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number in '" + address + "'");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be in 1..65535 in '" + address + "'");
        }
    }

    public Region withState(RegionState s) {
        return new Region(id, address, zone, capacityBytes, s, key, previousKey);
    }

    /** This region with {@code next} as its key and its current key as the previous one, still accepted. */
    public Region rekeyed(String next) {
        return new Region(id, address, zone, capacityBytes, state, next, key);
    }

    /** This region without its previous key. */
    public Region keyRetired() {
        return new Region(id, address, zone, capacityBytes, state, key, "");
    }

    public boolean keyed() {
        return !key.isEmpty();
    }

    public boolean member() {
        return state != RegionState.REMOVED;
    }
}
