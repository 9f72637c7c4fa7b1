package geoblocks.blockstore.meta;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the block collector has collected on this node over its life, in the metadata engine under
 * key {@code 'g' "collected"}: blocks i64, bytes i64. Kept so {@code status} and {@code /metrics}
 * show lifetime totals across restarts.
 */
public final class MetaGcTotals {
    static final byte PREFIX = 'g';
    static final byte[] KEY = ("gcollected").getBytes(StandardCharsets.US_ASCII);
    private final MetaEngine engine;
    private long blocks;
    private long bytes;

    /** Reads the totals kept in {@code engine} (zeros when none; a damaged value counts as zeros). */
    public MetaGcTotals(MetaEngine engine) throws IOException {
        this.engine = engine;
        byte[] v = engine.get(KEY);
        if (v != null && v.length == 16) {
            ByteBuffer b = ByteBuffer.wrap(v);
            blocks = b.getLong();
            bytes = b.getLong();
        }
    }

    /** Adds a collection's blocks and bytes, durably. */
    public void add(long blocks, long bytes) throws IOException {
        long nb = this.blocks + blocks;
        long ny = this.bytes + bytes;
        engine.write(new MetaBatch().put(KEY, ByteBuffer.allocate(16).putLong(nb).putLong(ny).array()));
        this.blocks = nb;
        this.bytes = ny;
    }

    public long blocks() {
        return blocks;
    }

    public long bytes() {
        return bytes;
    }
}
