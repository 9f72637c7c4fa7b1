package geoblocks.blockstore.core.layout;

import java.util.regex.Pattern;

/**
 * One region of a {@link Layout}: its id, its node's address ({@code host:port}), its zone, its
 * declared capacity in bytes (0: not declared) and its state. Invariant: the id matches
 * {@link #ID}, the address has a host and a port in 1..65535, the zone is not blank and the
 * capacity is not negative.
 */
public record Region(String id, String address, String zone, long capacityBytes, RegionState state) {
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
        return new Region(id, address, zone, capacityBytes, s);
    }

    public boolean member() {
        return state != RegionState.REMOVED;
    }
}
