package geoblocks.node.s3.migration;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * DataBridge's map of client networks: CIDR blocks (IPv4 or IPv6) each naming the region its clients
 * are in. The client's region is the header {@code X-Geoblocks-Client-Region} when it names a known
 * region, else the region of the first block that holds the client's address, else none.
 */
public final class ClientNetworks {
    private final List<Block> blocks = new ArrayList<>();

    private record Block(byte[] network, int bits, String region) {}

    /** Adds {@code cidr} ("10.1.0.0/16") for {@code region}; a malformed block is an IllegalArgumentException naming it. */
    public ClientNetworks add(String cidr, String region) {
        int slash = cidr.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("client network '" + cidr + "' must be ADDRESS/BITS");
        }
        byte[] net;
        int bits;
        try {
            net = InetAddress.getByName(cidr.substring(0, slash)).getAddress();
            bits = Integer.parseInt(cidr.substring(slash + 1));
        } catch (UnknownHostException | NumberFormatException e) {
            throw new IllegalArgumentException("client network '" + cidr + "' is not ADDRESS/BITS: " + e.getMessage());
        }
        if (bits < 0 || bits > net.length * 8) {
            throw new IllegalArgumentException("client network '" + cidr + "' has " + bits + " prefix bits, at most "
                    + net.length * 8);
        }
        blocks.add(new Block(net, bits, region));
        return this;
    }

    /** The region of a client at {@code address} that sent {@code header} (may be null), among {@code known}. */
    public String regionOf(String header, InetAddress address, Collection<String> known) {
        if (header != null && known.contains(header.trim())) {
            return header.trim();
        }
        if (address == null) {
            return null;
        }
        byte[] a = address.getAddress();
        for (Block b : blocks) {
            if (b.network.length == a.length && matches(b.network, a, b.bits)) {
                return b.region;
            }
        }
        return null;
    }

    private static boolean matches(byte[] net, byte[] a, int bits) {
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >> (i % 8);
            if ((net[i / 8] & mask) != (a[i / 8] & mask)) {
                return false;
            }
        }
        return true;
    }
}
