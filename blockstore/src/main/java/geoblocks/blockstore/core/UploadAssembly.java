package geoblocks.blockstore.core;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The decisions of one upload at its coordinator, without I/O: the client's pieces must arrive in
 * order (block by block, offset by offset), must not run more than the put window ahead of what is
 * durable, and each block must match the client's CRC32C. A complete block is handed out once; the
 * caller then says how many copies it needs now ({@link #expectCopies}) and reports each durable
 * copy ({@link #copyDurable}); a compressed block (codec other than none, announced on its last
 * piece) ends at that piece and is at most as long as the original, so its buffer is trimmed and
 * the difference returned to the budget; the durable prefix (what the client may be told) grows only over
 * blocks whose every expected copy is durable. Each block's buffer is reserved in the memory budget
 * before it is allocated and released when its last copy is durable or the upload ends. Not
 * thread-safe: one component owns it.
 */
public final class UploadAssembly {
    /**
     * A block received whole and checked against the client's checksum: its stored bytes and their
     * CRC32C, how they are stored, and the original length and CRC32C the client declared.
     */
    public record Block(int index, byte[] data, int crc, BlockCodec codec, int rawLength, int rawCrc) {
        /** The manifest entry of this block at {@code replicas}. */
        public Manifest.BlockRef ref(List<String> replicas) {
            return new Manifest.BlockRef(data.length, crc, replicas, codec, rawLength, rawCrc);
        }
    }

    private final long size;
    private final int blockSize;
    private final long windowBytes;
    private final TransferMemory budget;
    private final int blocks;
    private final int[] copiesMissing;
    /** Length of each block whose buffer is still reserved (0 once released). */
    private final int[] held;
    private final CRC32C crc = new CRC32C();
    private int current;
    private byte[] buf;
    private int filled;
    private long received;
    private int durableBlocks;
    private long reservedBlocks;
    /** Bytes reserved by the caller ({@link #prepay}) for the next block's buffer. */
    private long prepaid;

    public UploadAssembly(long size, int blockSize, long windowBytes, TransferMemory budget) {
        if (size < 0 || blockSize < 1) {
            throw new IllegalArgumentException("size must be >= 0 and block size >= 1, were " + size + " and " + blockSize);
        }
        this.size = size;
        this.blockSize = blockSize;
        this.windowBytes = windowBytes;
        this.budget = budget;
        this.blocks = Manifest.blockCount(size, blockSize);
        this.copiesMissing = new int[blocks];
        this.held = new int[blocks];
        Arrays.fill(copiesMissing, -1);
    }

    public int blocks() {
        return blocks;
    }

    /**
     * Bytes the next piece needs reserved before {@link #add} takes it: the length of the block it
     * starts, or 0 when a block is being filled, the file is complete, or they are {@link #prepay prepaid}.
     */
    public long bufferNeeded() {
        return buf != null || current >= blocks || prepaid >= lengthOf(current) ? 0 : lengthOf(current) - prepaid;
    }

    /**
     * The caller reserved {@code bytes} in the budget (an admission queue admitted it) for the next
     * block's buffer: {@link #add} uses them instead of reserving; whatever is left goes back at the end.
     */
    public void prepay(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot prepay " + bytes + " bytes");
        }
        prepaid += bytes;
    }

    public int lengthOf(int block) {
        return (int) Math.min(blockSize, size - (long) block * blockSize);
    }

    /**
     * Adds the client's piece at ({@code block}, {@code offset}); returns the block when this piece
     * completes it, else null.
     *
     * @throws IllegalArgumentException when the piece is out of order, overruns its block or the
     *     file, runs beyond the window, ends a block with the wrong checksum, or finds no memory
     */
    public Block add(int block, int offset, byte[] data, boolean last, int blockCrc) {
        return add(block, offset, data, last, blockCrc, BlockCodec.NONE.id(), blockCrc);
    }

    /**
     * {@link #add(int, int, byte[], boolean, int)} for a block stored with codec {@code codecId}
     * ({@link BlockCodec#id()}), whose original bytes have CRC32C {@code rawCrc}.
     */
    public Block add(int block, int offset, byte[] data, boolean last, int blockCrc, int codecId, int rawCrc) {
        received += data.length;
        long ahead = received - durableBytes();
        if (ahead > windowBytes + blockSize) {
            throw new IllegalArgumentException("client sent " + ahead + " bytes beyond what is durable; the window is "
                    + windowBytes);
        }
        if (block != current || offset != filled) {
            throw new IllegalArgumentException("expected block " + current + " offset " + filled + ", got block "
                    + block + " offset " + offset);
        }
        if (current >= blocks) {
            throw new IllegalArgumentException("data past the announced size of " + size + " bytes");
        }
        int len = lengthOf(current);
        if (buf == null) {
            if (prepaid >= len) {
                prepaid -= len;
            } else if (!budget.tryReserve(len)) {
                throw budget.refusal(len);
            }
            held[current] = len;
            reservedBlocks += len;
            buf = new byte[len];
        }
        if (data.length > len - filled) {
            throw new IllegalArgumentException("block " + current + " overruns its " + len + " bytes");
        }
        System.arraycopy(data, 0, buf, filled, data.length);
        crc.update(data);
        filled += data.length;
        BlockCodec codec = last ? codec(codecId) : BlockCodec.NONE;
        if (filled < len && (!last || codec == BlockCodec.NONE)) {
            if (last) {
                throw new IllegalArgumentException("uncompressed block " + current + " ends after " + filled
                        + " of its " + len + " bytes");
            }
            return null;
        }
        int actual = (int) crc.getValue();
        if (!last || blockCrc != actual) {
            throw new IllegalArgumentException("block " + current + " checksum mismatch: client sent "
                    + Checksums.hex(blockCrc) + ", node received data with " + Checksums.hex(actual));
        }
        if (codec == BlockCodec.NONE && rawCrc != actual) {
            throw new IllegalArgumentException("uncompressed block " + current + " has two checksums: "
                    + Checksums.hex(actual) + " and original " + Checksums.hex(rawCrc));
        }
        if (filled < len) {
            budget.release(len - filled);
            reservedBlocks -= len - filled;
            held[current] = filled;
            buf = Arrays.copyOf(buf, filled);
        }
        Block done = new Block(current, buf, actual, codec, len, codec == BlockCodec.NONE ? actual : rawCrc);
        current++;
        buf = null;
        filled = 0;
        crc.reset();
        return done;
    }

    private BlockCodec codec(int codecId) {
        try {
            return BlockCodec.ofId(codecId);
        } catch (IOException e) {
            throw new IllegalArgumentException("block " + current + ": " + e.getMessage());
        }
    }

    /** Block {@code index} (handed out by {@link #add}) counts as durable after {@code copies} durable copies. */
    public void expectCopies(int index, int copies) {
        if (index < 0 || index >= current || copiesMissing[index] != -1 || copies < 1) {
            throw new IllegalStateException("block " + index + " cannot expect " + copies + " copies now");
        }
        copiesMissing[index] = copies;
    }

    /**
     * One copy of block {@code index} is durable. Returns the durable byte count when the durable
     * prefix grew (the client may be told), else -1.
     */
    public long copyDurable(int index) {
        if (index < 0 || index >= blocks || copiesMissing[index] <= 0) {
            throw new IllegalStateException("block " + index + " expects no more copies");
        }
        if (--copiesMissing[index] > 0) {
            return -1;
        }
        release(index);
        int before = durableBlocks;
        while (durableBlocks < current && copiesMissing[durableBlocks] == 0) {
            durableBlocks++;
        }
        return durableBlocks > before ? durableBytes() : -1;
    }

    /** Bytes of the file whose blocks are durable, counted from the start. */
    public long durableBytes() {
        return Math.min(size, (long) durableBlocks * blockSize);
    }

    /** Every block is durable. */
    public boolean complete() {
        return durableBlocks == blocks;
    }

    /** Bytes of block buffers still reserved in the memory budget. */
    public long reservedBytes() {
        return reservedBlocks;
    }

    /** Releases every block buffer still reserved (the upload ended, either way). */
    public void releaseAll() {
        for (int i = 0; i < blocks; i++) {
            release(i);
        }
        buf = null;
        budget.release(prepaid);
        prepaid = 0;
    }

    private void release(int index) {
        if (held[index] > 0) {
            budget.release(held[index]);
            reservedBlocks -= held[index];
            held[index] = 0;
        }
    }
}
