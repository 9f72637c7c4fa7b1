package geoblocks.blockstore.meta;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * {@link MetaEngine} over a sorted in-memory map (unsigned byte order): tests and the simulator.
 * Batches are applied one at a time; a scan is weakly consistent (it may see a batch that lands
 * while it runs in part), which is enough for its single-threaded owners. {@link #crashAfter} lets a
 * test cut a batch sequence short, as a crash would.
 */
public final class MemoryMetaEngine implements MetaEngine {
    private final ConcurrentSkipListMap<byte[], byte[]> map = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
    private volatile int writesLeft = Integer.MAX_VALUE;
    private boolean closed;

    @Override
    public byte[] get(byte[] key) {
        byte[] v = map.get(key);
        return v == null ? null : v.clone();
    }

    @Override
    public synchronized void write(MetaBatch batch) throws IOException {
        if (closed) {
            throw new IOException("metadata engine is closed");
        }
        if (writesLeft-- <= 0) {
            throw new IOException("simulated crash: write refused");
        }
        for (MetaBatch.Op op : batch.ops()) {
            if (op.value() == null) {
                map.remove(op.key());
            } else {
                map.put(op.key(), op.value());
            }
        }
    }

    @Override
    public void scan(byte[] from, byte[] to, Visitor visitor) throws IOException {
        if (to != null && Arrays.compareUnsigned(from, to) >= 0) {
            return;
        }
        NavigableMap<byte[], byte[]> view = to == null ? map.tailMap(from, true) : map.subMap(from, true, to, false);
        for (Map.Entry<byte[], byte[]> e : view.entrySet()) {
            if (!visitor.visit(e.getKey().clone(), e.getValue().clone())) {
                return;
            }
        }
    }

    /** Refuses every write after the next {@code n}, as a crash would cut them (tests). */
    public void crashAfter(int n) {
        writesLeft = n;
    }

    /** Entries held (tests). */
    public int entries() {
        return map.size();
    }

    @Override
    public Usage usage() {
        long bytes = 0;
        for (Map.Entry<byte[], byte[]> e : map.entrySet()) {
            bytes += e.getKey().length + e.getValue().length;
        }
        return new Usage(0, bytes, 0, 0);
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
