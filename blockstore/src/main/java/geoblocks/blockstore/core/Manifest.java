package geoblocks.blockstore.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One version of a stored file: everything needed to find and verify it from any node: its name,
 * size, block size, the policy and region it was uploaded with, per block its length, CRC32C and
 * replica regions (and how it is stored: {@link BlockCodec}), and its {@link Version} (identity and order among the name's versions). A
 * {@code deleted} manifest is a tombstone: the version that deleted the name (no blocks).
 *
 * <p>{@code locEpoch} counts changes of where this version's blocks live (re-replication, and a
 * later migration): the same version with a higher epoch replaces the lower one when two copies
 * meet; it never changes the order of versions. Invariant: original block lengths add up to {@code size};
 * every block but the last is {@code blockSize} long and the last at most that; every block has
 * at least one replica; a tombstone has no blocks.
 *
 * <p>{@code meta} is a small map of text the uploader attached to the version (the S3 gateway keeps
 * an object's ETag and content type there): at most {@link #MAX_META_BYTES} UTF-8 bytes, sorted by key,
 * carried along when the version's blocks move. A version whose metadata holds {@link #META_KEEP}
 * is not dropped by the version retention (the S3 gateway marks versions of a bucket with
 * versioning enabled so; {@link ManifestHistory#prune}).
 *
 * <p>{@code inline} holds the whole content of a small object ({@code geoblocks.node.inline-max})
 * stored in the manifest itself instead of in block files: then the version has no blocks, its
 * {@code size} is the data's length (at most {@link #MAX_INLINE_BYTES}) and the data travels, and
 * is kept, wherever the manifest is. Null for every other version.
 */
public record Manifest(String name, String fileId, long size, int blockSize, String policy,
        String uploadedAt, long createdMillis, List<BlockRef> blocks, Version version, long locEpoch,
        boolean deleted, Map<String, String> meta, Inline inline) {
    /** Most UTF-8 bytes a version's metadata (keys and values together) may hold. */
    public static final int MAX_META_BYTES = 200;
    /** Metadata key of a version the version retention keeps after it is superseded (until the name is collected). */
    public static final String META_KEEP = "keep";
    /** Most bytes an object stored inline may have, whatever {@code geoblocks.node.inline-max} says. */
    public static final int MAX_INLINE_BYTES = 16 << 10;
    /**
     * Location epochs from here up mark a <b>purged</b> version ({@link #purged}): a version taken out
     * of its name's history on purpose (S3's DeleteObject with a versionId). Far above any count of
     * real moves, so the purged copy outranks every copy of the version that meets it.
     */
    public static final long PURGED_EPOCH = 1L << 40;
    /** Most UTF-8 bytes a file name may hold: 63 (longest bucket) + 1 ('/') + 1,024 (S3's longest key). */
    public static final int MAX_NAME_BYTES = 1088;

    /**
     * One block of the file as stored: its stored length and CRC32C (what replicas hold, scrub,
     * fetch and copy), the regions holding a replica, and how it is stored: {@code codec}, the
     * original length and the original's CRC32C (what a reader gets after decompressing). An
     * uncompressed block has {@code rawLength == length} and {@code rawCrc == crc}; a compressed one
     * is never longer stored than original.
     */
    public record BlockRef(int length, int crc, List<String> replicas, BlockCodec codec, int rawLength, int rawCrc) {
        public BlockRef {
            replicas = List.copyOf(replicas);
            Objects.requireNonNull(codec, "codec");
            if (length < 0) {
                throw new IllegalArgumentException("block length must be >= 0, was " + length);
            }
            if (replicas.isEmpty()) {
                throw new IllegalArgumentException("a block needs at least one replica");
            }
            if (codec == BlockCodec.NONE && (rawLength != length || rawCrc != crc)) {
                throw new IllegalArgumentException("an uncompressed block of " + length + " bytes has original length "
                        + rawLength + " and a different original checksum");
            }
            if (codec != BlockCodec.NONE && length > rawLength) {
                throw new IllegalArgumentException("a compressed block of " + length
                        + " bytes is longer than its original " + rawLength);
            }
        }

        /** An uncompressed block. */
        public BlockRef(int length, int crc, List<String> replicas) {
            this(length, crc, replicas, BlockCodec.NONE, length, crc);
        }

        /** The same stored block held by {@code regions}. */
        public BlockRef withReplicas(List<String> regions) {
            return new BlockRef(length, crc, regions, codec, rawLength, rawCrc);
        }
    }

    /**
     * The content of an object stored in its manifest: its bytes and their CRC32C, checked when
     * made (so when decoded) and again by {@link #verified} before the bytes are served. Compared by
     * content; the bytes are copied in and out, so nobody can change them.
     */
    public record Inline(byte[] data, int crc) {
        public Inline {
            Objects.requireNonNull(data, "data");
            if (data.length > MAX_INLINE_BYTES) {
                throw new IllegalArgumentException("inline data of " + data.length + " bytes exceeds "
                        + MAX_INLINE_BYTES);
            }
            data = data.clone();
            int actual = Checksums.crc32c(data);
            if (actual != crc) {
                throw new IllegalArgumentException("inline data checksum " + Checksums.hex(actual) + " != stored "
                        + Checksums.hex(crc));
            }
        }

        /** {@code data} with its CRC32C computed here. */
        public static Inline of(byte[] data) {
            return new Inline(data, Checksums.crc32c(data));
        }

        /** A copy of the bytes. */
        @Override
        public byte[] data() {
            return data.clone();
        }

        public int length() {
            return data.length;
        }

        /** A copy of the bytes, checked against the CRC32C once more (what a reader is served). */
        public byte[] verified() throws IOException {
            int actual = Checksums.crc32c(data);
            if (actual != crc) {
                throw new IOException("inline data is corrupt: checksum " + Checksums.hex(actual)
                        + " != stored " + Checksums.hex(crc));
            }
            return data.clone();
        }

        /** Writes the bytes to {@code out} (the codec; no copy). */
        void writeTo(RecordWriter out) {
            out.bytes(data);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Inline i && i.crc == crc && Arrays.equals(i.data, data);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(data) + crc;
        }

        @Override
        public String toString() {
            return "Inline[" + data.length + " bytes, crc32c " + Checksums.hex(crc) + "]";
        }
    }

    /** A version stored in block files (no inline data). */
    public Manifest(String name, String fileId, long size, int blockSize, String policy, String uploadedAt,
            long createdMillis, List<BlockRef> blocks, Version version, long locEpoch, boolean deleted,
            Map<String, String> meta) {
        this(name, fileId, size, blockSize, policy, uploadedAt, createdMillis, blocks, version, locEpoch, deleted,
                meta, null);
    }

    /**
     * A small object stored in its manifest: {@code data} is its whole content (no blocks), at most
     * {@link #MAX_INLINE_BYTES}.
     */
    public static Manifest inline(String name, String fileId, int blockSize, String policy, String uploadedAt,
            long createdMillis, Version version, Map<String, String> meta, byte[] data) {
        return new Manifest(name, fileId, data.length, blockSize, policy, uploadedAt, createdMillis, List.of(), version,
                0, false, meta, Inline.of(data));
    }

    /** True when the version retention keeps this version after it is superseded ({@link #META_KEEP}). */
    public boolean keep() {
        return meta.containsKey(META_KEEP);
    }

    /**
     * True for the stub a purge left in place of a version ({@link #purgedAt}): no blocks, no
     * content; reads, listings and {@link ManifestHistory#live} skip it.
     */
    public boolean purged() {
        return deleted && locEpoch >= PURGED_EPOCH;
    }

    /**
     * This version purged at wall time {@code nowMillis}: a tombstone with the same {@link Version}
     * and an epoch of at least {@link #PURGED_EPOCH}, so wherever it meets a copy of this version it
     * replaces it ({@link ManifestHistory#merge}) and the version's blocks lose their reference (the
     * block collector then removes them). Its {@code createdMillis} is the purge's time (what
     * {@link ManifestHistory#prune} measures the stub's retention from). A purged version is itself.
     */
    public Manifest purgedAt(long nowMillis) {
        if (purged()) {
            return this;
        }
        return new Manifest(name, fileId, 0, 1, "", uploadedAt, nowMillis, List.of(), version,
                Math.min(locEpoch, PURGED_EPOCH - 1) + PURGED_EPOCH, true);
    }

    /** True when the content is held in the manifest ({@link #inline}), not in blocks. */
    public boolean isInline() {
        return inline != null;
    }

    /** A version without metadata. */
    public Manifest(String name, String fileId, long size, int blockSize, String policy, String uploadedAt,
            long createdMillis, List<BlockRef> blocks, Version version, long locEpoch, boolean deleted) {
        this(name, fileId, size, blockSize, policy, uploadedAt, createdMillis, blocks, version, locEpoch, deleted,
                Map.of());
    }

    /** A manifest as written before versions existed: its version is {@link Version#legacy}, epoch 0, not deleted. */
    public Manifest(String name, String fileId, long size, int blockSize, String policy, String uploadedAt,
            long createdMillis, List<BlockRef> blocks) {
        this(name, fileId, size, blockSize, policy, uploadedAt, createdMillis, blocks,
                Version.legacy(createdMillis, uploadedAt), 0, false);
    }

    public Manifest {
        validateName(name);
        Objects.requireNonNull(fileId, "fileId");
        Objects.requireNonNull(version, "version");
        blocks = List.copyOf(blocks);
        meta = Collections.unmodifiableMap(new TreeMap<>(validateMeta(meta)));
        if (locEpoch < 0) {
            throw new IllegalArgumentException("location epoch must be >= 0, was " + locEpoch);
        }
        if (deleted && (!blocks.isEmpty() || size != 0)) {
            throw new IllegalArgumentException("a tombstone has no blocks, this one has " + blocks.size());
        }
        if (blockSize <= 0) {
            throw new IllegalArgumentException("block size must be > 0, was " + blockSize);
        }
        if (inline != null) {
            if (deleted || !blocks.isEmpty()) {
                throw new IllegalArgumentException(deleted ? "a tombstone has no inline data"
                        : "a version with inline data has no blocks, this one has " + blocks.size());
            }
            if (size != inline.length()) {
                throw new IllegalArgumentException("inline data of " + inline.length() + " bytes, file size is " + size);
            }
        } else {
            long sum = 0;
            for (int i = 0; i < blocks.size(); i++) {
                int len = blocks.get(i).rawLength();
                if (i < blocks.size() - 1 && len != blockSize) {
                    throw new IllegalArgumentException("block " + i + " has " + len + " bytes, expected " + blockSize);
                }
                if (len > blockSize) {
                    throw new IllegalArgumentException("last block has " + len + " bytes, more than the block size "
                            + blockSize);
                }
                sum += len;
            }
            if (sum != size) {
                throw new IllegalArgumentException("blocks add up to " + sum + " bytes, file size is " + size);
            }
        }
    }

    /**
     * The tombstone that deletes {@code name}: made at {@code region} at wall time {@code createdMillis},
     * with {@code version} placing the delete among the name's versions.
     */
    public static Manifest tombstone(String name, String fileId, String region, long createdMillis, Version version) {
        return new Manifest(name, fileId, 0, 1, "", region, createdMillis, List.of(), version, 0, true);
    }

    /** This manifest with {@code meta} instead of its metadata (checked as every version's). */
    public Manifest withMeta(Map<String, String> meta) {
        return new Manifest(name, fileId, size, blockSize, policy, uploadedAt, createdMillis, blocks, version, locEpoch,
                deleted, validateMeta(meta), inline);
    }

    /** This manifest as version {@code v} (epoch 0: a new version starts where its upload put the blocks). */
    public Manifest withVersion(Version v) {
        return new Manifest(name, fileId, size, blockSize, policy, uploadedAt, createdMillis, blocks, v, 0, deleted, meta,
                inline);
    }

    /**
     * The same version with its blocks at new places: the epoch goes up by one, so anti-entropy
     * keeps this over the old locations everywhere (the seam a migration of blocks builds on).
     */
    public Manifest withLocations(List<BlockRef> newBlocks) {
        if (newBlocks.size() != blocks.size()) {
            throw new IllegalArgumentException("new locations for " + newBlocks.size() + " blocks, the version has " + blocks.size());
        }
        for (int i = 0; i < blocks.size(); i++) {
            BlockRef n = newBlocks.get(i);
            BlockRef o = blocks.get(i);
            if (n.length() != o.length() || n.crc() != o.crc() || n.codec() != o.codec() || n.rawCrc() != o.rawCrc()) {
                throw new IllegalArgumentException("block " + i + " changed content, not only location");
            }
        }
        return new Manifest(name, fileId, size, blockSize, policy, uploadedAt, createdMillis, newBlocks, version,
                locEpoch + 1, deleted, meta, inline);
    }

    /**
     * Bytes the blocks take as stored (what a download streams); {@link #size} for an uncompressed
     * file; 0 for an inline one (its bytes travel in the manifest).
     */
    public long storedSize() {
        long sum = 0;
        for (BlockRef b : blocks) {
            sum += b.length();
        }
        return sum;
    }

    public BlockId blockId(int index) {
        return BlockId.ofFileBlock(fileId, index);
    }

    /**
     * File names: 1..{@value #MAX_NAME_BYTES} UTF-8 bytes (an S3 key of S3's 1,024-byte limit under
     * a 63-character bucket and its '/'), no control characters. Path-like names ("photos/1") are
     * fine: a name is never used as a path (it is a key in the metadata engine).
     */
    public static String validateName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("file name must not be empty");
        }
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("file name must be at most " + MAX_NAME_BYTES + " UTF-8 bytes, '"
                    + (name.length() > 80 ? name.substring(0, 80) + "..." : name) + "' has " + bytes);
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("file name must not contain control characters: '" + name + "'");
            }
        }
        return name;
    }

    /** Version metadata: at most {@link #MAX_META_BYTES} UTF-8 bytes of keys and values, keys not empty. */
    public static Map<String, String> validateMeta(Map<String, String> meta) {
        int bytes = 0;
        for (Map.Entry<String, String> e : meta.entrySet()) {
            if (e.getKey().isEmpty()) {
                throw new IllegalArgumentException("version metadata keys must not be empty");
            }
            bytes += e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().getBytes(StandardCharsets.UTF_8).length;
        }
        if (bytes > MAX_META_BYTES) {
            throw new IllegalArgumentException("version metadata takes " + bytes + " UTF-8 bytes, at most "
                    + MAX_META_BYTES + " allowed");
        }
        return meta;
    }

    public static int blockCount(long size, int blockSize) {
        return (int) Math.max(1, (size + blockSize - 1) / blockSize);
    }
}
