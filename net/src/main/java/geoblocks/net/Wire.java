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
        NetAddress src = readAddress(in);
        NetAddress dst = readAddress(in);
        int p = readU8(in, "transport");
        Transport[] all = Transport.values();
        if (p >= all.length) {
            throw new MalformedMessageException("unknown transport ordinal " + p);
        }
        return new NetHeader(src, dst, all[p]);
    }

    public static int addressSize(NetAddress a) {
        return 1 + a.getIp().getAddress().length + 2;
    }

    public static void writeAddress(NetAddress a, ByteBuffer out) {
        byte[] ip = a.getIp().getAddress();
        out.put((byte) ip.length).put(ip).putShort((short) a.getPort());
    }

    public static NetAddress readAddress(ByteBuffer in) throws MalformedMessageException {
        int len = readU8(in, "ip length");
        if (len != 4 && len != 16) {
            throw new MalformedMessageException("ip length must be 4 or 16, was " + len);
        }
        need(in, len + 2, "address");
        byte[] ip = new byte[len];
        in.get(ip);
        int port = Short.toUnsignedInt(in.getShort());
        try {
            return new NetAddress(InetAddress.getByAddress(ip), port);
        } catch (UnknownHostException e) {
            throw new MalformedMessageException("bad ip bytes: " + e.getMessage());
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
