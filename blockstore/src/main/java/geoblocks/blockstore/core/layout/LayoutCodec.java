package geoblocks.blockstore.core.layout;

import geoblocks.net.ClusterVersion;
import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The encoding of a {@link Layout}, kept in the metadata engine and carried by {@code LayoutSync}:
 *
 * <pre>
 * +------+------+--------+---------+--------------+----------------------+-----------+---------------------+--------+
 * | 'G'  | 'L'  | fmt=1  | version | owners-since | n, n x owner-before  | m regions | m x region          | crc32c |
 * | u8   | u8   | u8     | i64     | i64          | u16, n x str         | u16       | id addr zone str,   | i32    |
 * |      |      |        |         |              |                      |           | capacity i64, st u8 |        |
 * +------+------+--------+---------+--------------+----------------------+-----------+---------------------+--------+
 * str = u16 length + UTF-8 bytes; st = RegionState ordinal; the CRC32C covers every byte before it.
 * </pre>
 *
 * Format 2 is the same with each region's node key and previous key ({@code str} each, empty for none)
 * after its state. A
 * layout that names no key is written as format 1, byte for byte as before (so its digest is too), and
 * both formats are read. Format 3 (release 0.3) is format 2 followed, after the last region, by the
 * cluster's version ({@code major u8 | minor u8}): written only once the cluster's version rose above
 * 0.2 ({@code cluster finalize}), so until then every layout reads on the previous release too.
 *
 * Decoding checks every length, the checksum and the layout's own invariants, and throws
 * {@link CorruptLayoutException} naming the problem.
 */
public final class LayoutCodec {
    static final int FORMAT = 1;
    /** The format that carries node keys: written when some region's key is named. */
    static final int FORMAT_KEYS = 2;
    /** The format that carries the cluster's version: written once it is above 0.2. */
    static final int FORMAT_CLUSTER_VERSION = 3;
    /** Regions a layout may hold (the u16 count allows more; no cluster needs them). */
    public static final int MAX_REGIONS = 1_000;

    private LayoutCodec() {}

    public static byte[] encode(Layout l) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        body(l, out);
        byte[] b = out.toByteArray();
        CRC32C crc = new CRC32C();
        crc.update(b);
        return ByteBuffer.allocate(b.length + 4).put(b).putInt((int) crc.getValue()).array();
    }

    private static void body(Layout l, ByteArrayOutputStream out) {
        boolean versioned = l.clusterVersion().compareTo(ClusterVersion.V0_2) > 0;
        boolean keys = versioned || l.regions().values().stream().anyMatch(Region::keyed);
        out.write('G');
        out.write('L');
        out.write(versioned ? FORMAT_CLUSTER_VERSION : keys ? FORMAT_KEYS : FORMAT);
        i64(out, l.version());
        i64(out, l.ownersSince());
        u16(out, l.ownersBefore().size());
        l.ownersBefore().forEach(s -> str(out, s));
        u16(out, l.regions().size());
        for (Region r : l.regions().values()) {
            str(out, r.id());
            str(out, r.address());
            str(out, r.zone());
            i64(out, r.capacityBytes());
            out.write(r.state().ordinal());
            if (keys) {
                str(out, r.key());
                str(out, r.previousKey());
            }
        }
        if (versioned) {
            out.write(l.clusterVersion().major());
            out.write(l.clusterVersion().minor());
        }
    }

    public static Layout decode(byte[] bytes) throws CorruptLayoutException {
        if (bytes == null || bytes.length < 3 + 16 + 4 + 4) {
            throw new CorruptLayoutException("a layout is at least 27 bytes, got " + (bytes == null ? 0 : bytes.length));
        }
        if (bytes[0] != 'G' || bytes[1] != 'L') {
            throw new CorruptLayoutException("not a layout: magic bytes are " + bytes[0] + "," + bytes[1]);
        }
        if (bytes[2] < FORMAT || bytes[2] > FORMAT_CLUSTER_VERSION) {
            throw new CorruptLayoutException("layout format " + bytes[2] + " is not known (this build reads " + FORMAT
                    + " to " + FORMAT_CLUSTER_VERSION + ": a newer geoblocks wrote it)");
        }
        boolean keys = bytes[2] >= FORMAT_KEYS;
        boolean versioned = bytes[2] == FORMAT_CLUSTER_VERSION;
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        int stored = ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt();
        if (stored != (int) crc.getValue()) {
            throw new CorruptLayoutException("layout checksum mismatch over " + (bytes.length - 4) + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, 3, bytes.length - 7);
        try {
            long version = b.getLong();
            long since = b.getLong();
            int n = Short.toUnsignedInt(b.getShort());
            if (n > MAX_REGIONS) {
                throw new CorruptLayoutException("layout lists " + n + " owners, more than " + MAX_REGIONS);
            }
            List<String> before = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                before.add(str(b));
            }
            int m = Short.toUnsignedInt(b.getShort());
            if (m > MAX_REGIONS) {
                throw new CorruptLayoutException("layout lists " + m + " regions, more than " + MAX_REGIONS);
            }
            Map<String, Region> regions = new TreeMap<>();
            for (int i = 0; i < m; i++) {
                String id = str(b);
                String address = str(b);
                String zone = str(b);
                long capacity = b.getLong();
                int st = Byte.toUnsignedInt(b.get());
                if (st >= RegionState.values().length) {
                    throw new CorruptLayoutException("region '" + id + "' has unknown state " + st);
                }
                String key = keys ? str(b) : "";
                String previous = keys ? str(b) : "";
                if (regions.put(id, new Region(id, address, zone, capacity, RegionState.values()[st], key, previous)) != null) {
                    throw new CorruptLayoutException("region '" + id + "' is listed twice");
                }
            }
            ClusterVersion cluster = ClusterVersion.V0_2;
            if (versioned) {
                cluster = new ClusterVersion(Byte.toUnsignedInt(b.get()), Byte.toUnsignedInt(b.get()));
                if (cluster.compareTo(ClusterVersion.V0_2) <= 0) {
                    throw new CorruptLayoutException("a format 3 layout names cluster version " + cluster
                            + ", which format 3 is never written for (it is above 0.2)");
                }
            }
            if (b.hasRemaining()) {
                throw new CorruptLayoutException(b.remaining() + " bytes after the last region");
            }
            return new Layout(version, regions, before, since, cluster);
        } catch (BufferUnderflowException e) {
            throw new CorruptLayoutException("layout cut short (" + bytes.length + " bytes)");
        } catch (IllegalArgumentException e) {
            throw new CorruptLayoutException("invalid layout: " + e.getMessage());
        }
    }

    /** The first 64 bits of SHA-256 over the encoding without its checksum. */
    static long digest(Layout l) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        body(l, out);
        try {
            return ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(out.toByteArray())).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static void i64(ByteArrayOutputStream out, long v) {
        out.writeBytes(ByteBuffer.allocate(8).putLong(v).array());
    }

    private static void u16(ByteArrayOutputStream out, int v) {
        out.write(v >>> 8);
        out.write(v);
    }

    private static void str(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        u16(out, b.length);
        out.writeBytes(b);
    }

    private static String str(ByteBuffer b) throws CorruptLayoutException {
        int n = Short.toUnsignedInt(b.getShort());
        if (n > b.remaining()) {
            throw new CorruptLayoutException("a string of " + n + " bytes with " + b.remaining() + " left");
        }
        byte[] s = new byte[n];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }
}
