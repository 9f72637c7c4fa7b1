package geoblocks.blockstore.core;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A move this node coordinates, as kept in the metadata engine from its start to its end so that a
 * restart resumes it: the version being moved as it was when the move started ({@code from}: its
 * file id, version and old homes, from which {@link MovePlan} derives the copies, the new manifest and
 * the old copies to drop), the target regions, each block's new homes ({@code blockTargets}: the
 * targets for every block in a whole move; a drain replaces only the copies at a draining region,
 * block by block) and when it started (epoch ms). Binary form, big-endian, sealed by CRC32C over
 * every byte before it. Version 1, a whole move (every block to {@code targets}):
 *
 * <pre>
 * 0       4      5               13       14
 * +-------+------+---------------+--------+--------------------------+-----------+----------+--------+
 * | GBMV  | 1    | started i64   | n u8   | n x target (u16 + UTF-8) | len i32   | manifest | crc32c |
 * +-------+------+---------------+--------+--------------------------+-----------+----------+--------+
 * </pre>
 * Version 2, block by block: after the targets, {@code blocks u32} and for each block {@code k u8}
 * and {@code k} indexes (u8) into the targets, then {@code len}, the manifest and the CRC as in
 * version 1. A whole move is written as version 1. The manifest is {@link ManifestCodec#encode}'s
 * (itself sealed).
 */
public record MoveRecord(Manifest from, List<String> targets, long startedMillis, List<List<String>> blockTargets) {
    static final int MAGIC = 0x47424D56; // "GBMV"
    static final byte WHOLE = 1;
    static final byte BLOCKWISE = 2;
    static final int MAX_TARGETS = 255;
    static final int MAX_REGION = 1024;

    /**
     * @throws IllegalArgumentException when there are no targets or more than {@value #MAX_TARGETS},
     *     {@code from} is a delete, or {@code blockTargets} does not give every block of {@code from}
     *     a non-empty list of distinct regions among {@code targets}
     */
    public MoveRecord {
        targets = List.copyOf(targets);
        blockTargets = blockTargets.stream().map(List::copyOf).toList();
        if (targets.isEmpty() || targets.size() > MAX_TARGETS) {
            throw new IllegalArgumentException("a move needs 1.." + MAX_TARGETS + " targets, had " + targets.size());
        }
        if (from.deleted()) {
            throw new IllegalArgumentException("a delete of '" + from.name() + "' cannot be moved");
        }
        if (blockTargets.size() != from.blocks().size()) {
            throw new IllegalArgumentException("a move of '" + from.name() + "' names homes for " + blockTargets.size()
                    + " blocks, the version has " + from.blocks().size());
        }
        for (List<String> b : blockTargets) {
            if (b.isEmpty() || !targets.containsAll(b) || new HashSet<>(b).size() != b.size()) {
                throw new IllegalArgumentException("a move's block homes " + b + " must be distinct regions of " + targets);
            }
        }
    }

    /** A whole move: every block of {@code from} to {@code targets}. */
    public MoveRecord(Manifest from, List<String> targets, long startedMillis) {
        this(from, targets, startedMillis, Collections.nCopies(from.blocks().size(), targets));
    }

    /** A move block by block; its targets are every region some block goes to, in order of first mention. */
    public static MoveRecord blockwise(Manifest from, List<List<String>> blockTargets, long startedMillis) {
        return new MoveRecord(from, union(blockTargets), startedMillis, blockTargets);
    }

    /** The regions of {@code blockTargets}, each once, in order of first mention. */
    public static List<String> union(List<List<String>> blockTargets) {
        LinkedHashSet<String> all = new LinkedHashSet<>();
        blockTargets.forEach(all::addAll);
        return List.copyOf(all);
    }

    /** Every block goes to exactly {@code targets}, in that order. */
    public boolean whole() {
        return blockTargets.stream().allMatch(targets::equals);
    }

    public String name() {
        return from.name();
    }

    public byte[] encode() {
        byte[] manifest = ManifestCodec.encode(from);
        List<byte[]> t = new ArrayList<>();
        boolean whole = whole();
        int size = 4 + 1 + 8 + 1 + 4 + manifest.length + 4;
        if (!whole) {
            size += 4;
            for (List<String> bt : blockTargets) {
                size += 1 + bt.size();
            }
        }
        for (String r : targets) {
            byte[] b = r.getBytes(StandardCharsets.UTF_8);
            if (b.length > MAX_REGION) {
                throw new IllegalArgumentException("region name of " + b.length + " bytes");
            }
            t.add(b);
            size += 2 + b.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(MAGIC).put(whole ? WHOLE : BLOCKWISE).putLong(startedMillis).put((byte) targets.size());
        for (byte[] r : t) {
            b.putShort((short) r.length).put(r);
        }
        if (!whole) {
            b.putInt(blockTargets.size());
            for (List<String> bt : blockTargets) {
                b.put((byte) bt.size());
                for (String r : bt) {
                    b.put((byte) targets.indexOf(r));
                }
            }
        }
        b.putInt(manifest.length).put(manifest);
        b.putInt(Checksums.crc32c(b.array(), 0, size - 4));
        return b.array();
    }

    /** Decodes a record; {@code source} names it in errors. */
    public static MoveRecord decode(byte[] bytes, String source) throws IOException {
        if (bytes.length < 4 + 1 + 8 + 1 + 4 + 4) {
            throw new IOException(source + ": " + bytes.length + " bytes, too short for a move record");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.getInt(0) != MAGIC) {
            throw new IOException(source + ": bad magic 0x" + Integer.toHexString(b.getInt(0)) + ", not a move record");
        }
        byte version = b.get(4);
        if (version != WHOLE && version != BLOCKWISE) {
            throw new IOException(source + ": unknown move record version " + version + " (this node reads " + WHOLE
                    + " and " + BLOCKWISE + ")");
        }
        int stored = b.getInt(bytes.length - 4);
        int actual = Checksums.crc32c(bytes, 0, bytes.length - 4);
        if (stored != actual) {
            throw new IOException(source + ": checksum " + Checksums.hex(actual) + " != stored " + Checksums.hex(stored));
        }
        b.position(5).limit(bytes.length - 4);
        try {
            long started = b.getLong();
            int n = Byte.toUnsignedInt(b.get());
            List<String> targets = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = Short.toUnsignedInt(b.getShort());
                if (len > MAX_REGION || len > b.remaining()) {
                    throw new IOException(source + ": target " + i + " of " + len + " bytes");
                }
                byte[] r = new byte[len];
                b.get(r);
                targets.add(new String(r, StandardCharsets.UTF_8));
            }
            List<List<String>> blockTargets = null;
            if (version == BLOCKWISE) {
                int blocks = b.getInt();
                if (blocks < 0 || blocks > b.remaining()) {
                    throw new IOException(source + ": " + blocks + " blocks, " + b.remaining() + " bytes left");
                }
                blockTargets = new ArrayList<>(blocks);
                for (int i = 0; i < blocks; i++) {
                    int k = Byte.toUnsignedInt(b.get());
                    List<String> bt = new ArrayList<>(k);
                    for (int j = 0; j < k; j++) {
                        int at = Byte.toUnsignedInt(b.get());
                        if (at >= targets.size()) {
                            throw new IOException(source + ": block " + i + " names target " + at + " of " + targets.size());
                        }
                        bt.add(targets.get(at));
                    }
                    blockTargets.add(bt);
                }
            }
            int len = b.getInt();
            if (len < 0 || len != b.remaining()) {
                throw new IOException(source + ": manifest of " + len + " bytes, " + b.remaining() + " left");
            }
            byte[] m = new byte[len];
            b.get(m);
            Manifest from = ManifestCodec.decode(m);
            return blockTargets == null ? new MoveRecord(from, targets, started)
                    : new MoveRecord(from, targets, started, blockTargets);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new IOException(source + ": malformed move record: " + e, e);
        }
    }
}
