package geoblocks.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import se.sics.kompics.network.Transport;

/**
 * Shared wire helpers for codecs: header, strings and bounded byte arrays, each read with length
 * checks. Layout of a header:
 *
 * <pre>
 * +--------+-----------------+---------+--------+-----------------+---------+-------+
 * | ipLen  | source ip (4/16)| port u16| ipLen  | dest ip (4/16)  | port u16| proto |
 * +--------+-----------------+---------+--------+-----------------+---------+-------+
 * </pre>
 */
public final class Wire {
    /**
     * Bytes GeoNetwork adds to a message's encoding in a UDP datagram: the codec id (1) and the
     * sealing (key id 4, sequence number 8, GCM tag 16). A datagram's UDP payload is the encoding plus
     * this; the path MTU search of LEDBAT counts in UDP payload bytes.
     */
    public static final int DATAGRAM_OVERHEAD = 1 + 4 + 8 + 16;

    private Wire() {}

    public static int headerSize(NetHeader h) {
        return addressSize(h.source()) + addressSize(h.destination()) + 1;
    }

    public static void writeHeader(NetHeader h, ByteBuffer out) {
        writeAddress(h.source(), out);
        writeAddress(h.destination(), out);
        out.put((byte) h.protocol().ordinal());
    }

    public static NetHeader readHeader(ByteBuffer in) throws MalformedMessageException {
        AddressCache cache = ADDRESSES.get(); // one lookup for both addresses
        NetAddress src = readAddress(in, cache);
        NetAddress dst = readAddress(in, cache);
        int p = readU8(in, "transport");
        if (p >= TRANSPORTS.length) {
            throw new MalformedMessageException("unknown transport ordinal " + p);
        }
        return new NetHeader(src, dst, TRANSPORTS[p]);
    }

    /** Transport.values() copies the array on every call; read-only here. */
    private static final Transport[] TRANSPORTS = Transport.values();

    public static int addressSize(NetAddress a) {
        return 1 + a.ipBytes().length + 2;
    }

    public static void writeAddress(NetAddress a, ByteBuffer out) {
        byte[] ip = a.ipBytes();
        out.put((byte) ip.length).put(ip).putShort((short) a.getPort());
    }

    public static NetAddress readAddress(ByteBuffer in) throws MalformedMessageException {
        return readAddress(in, ADDRESSES.get());
    }

    private static NetAddress readAddress(ByteBuffer in, AddressCache cache) throws MalformedMessageException {
        int len = readU8(in, "ip length");
        if (len != 4 && len != 16) {
            throw new MalformedMessageException("ip length must be 4 or 16, was " + len);
        }
        need(in, len + 2, "address");
        NetAddress known = cache.find(in, len);
        if (known != null) {
            in.position(in.position() + len + 2);
            return known;
        }
        byte[] ip = new byte[len];
        in.get(ip);
        int port = Short.toUnsignedInt(in.getShort());
        NetAddress a;
        try {
            a = new NetAddress(InetAddress.getByAddress(ip), port);
        } catch (UnknownHostException e) {
            throw new MalformedMessageException("bad ip bytes: " + e.getMessage());
        }
        cache.keep(ip, port, a);
        return a;
    }

    /**
     * Per thread, the last few addresses decoded: a stream of datagrams between two peers carries the
     * same two addresses in every header, and reusing their (immutable) NetAddress saves three
     * allocations and a parse per address.
     */
    private static final ThreadLocal<AddressCache> ADDRESSES = ThreadLocal.withInitial(AddressCache::new);

    static final class AddressCache {
        static final int SIZE = 4;
        private final byte[][] ips = new byte[SIZE][];
        private final int[] ports = new int[SIZE];
        private final NetAddress[] addresses = new NetAddress[SIZE];
        private int next;

        /** The cached address whose {@code len} ip bytes and port are at {@code in}'s position, or null. */
        NetAddress find(ByteBuffer in, int len) {
            int p = in.position();
            int port = Short.toUnsignedInt(in.getShort(p + len));
            for (int i = 0; i < SIZE; i++) {
                byte[] ip = ips[i];
                if (ip != null && ip.length == len && ports[i] == port && sameBytes(in, p, ip)) {
                    return addresses[i];
                }
            }
            return null;
        }

        void keep(byte[] ip, int port, NetAddress a) {
            ips[next] = ip;
            ports[next] = port;
            addresses[next] = a;
            next = (next + 1) % SIZE;
        }

        private static boolean sameBytes(ByteBuffer in, int p, byte[] ip) {
            for (int i = 0; i < ip.length; i++) {
                if (in.get(p + i) != ip[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Size of a string written by {@link #writeString}: u16 length plus UTF-8 bytes. */
    public static int stringSize(String s) {
        return 2 + utf8(s).length;
    }

    public static void writeString(String s, ByteBuffer out) {
        byte[] b = utf8(s);
        if (b.length > 0xFFFF) {
            throw new IllegalArgumentException("string too long for the wire: " + b.length + " bytes");
        }
        out.putShort((short) b.length).put(b);
    }

    public static String readString(ByteBuffer in, int maxBytes, String what) throws MalformedMessageException {
        need(in, 2, what);
        int len = Short.toUnsignedInt(in.getShort());
        if (len > maxBytes) {
            throw new MalformedMessageException(what + " length " + len + " exceeds limit " + maxBytes);
        }
        need(in, len, what);
        byte[] b = new byte[len];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Reads a u32-length-prefixed byte array of at most {@code maxBytes}. */
    public static byte[] readBytes(ByteBuffer in, int maxBytes, String what) throws MalformedMessageException {
        int len = readInt(in, what + " length");
        if (len < 0 || len > maxBytes) {
            throw new MalformedMessageException(what + " length " + len + " outside 0.." + maxBytes);
        }
        need(in, len, what);
        byte[] b = new byte[len];
        in.get(b);
        return b;
    }

    public static void writeBytes(byte[] b, ByteBuffer out) {
        out.putInt(b.length).put(b);
    }

    public static int readU8(ByteBuffer in, String what) throws MalformedMessageException {
        need(in, 1, what);
        return Byte.toUnsignedInt(in.get());
    }

    public static int readInt(ByteBuffer in, String what) throws MalformedMessageException {
        need(in, 4, what);
        return in.getInt();
    }

    public static long readLong(ByteBuffer in, String what) throws MalformedMessageException {
        need(in, 8, what);
        return in.getLong();
    }

    public static void need(ByteBuffer in, int n, String what) throws MalformedMessageException {
        if (in.remaining() < n) {
            throw new MalformedMessageException(
                    "truncated " + what + ": need " + n + " bytes, have " + in.remaining());
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
