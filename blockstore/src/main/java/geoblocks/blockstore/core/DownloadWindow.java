package geoblocks.blockstore.core;

import geoblocks.net.Bytes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The decisions of one download at the node serving it, without I/O: which block to fetch next,
 * which fetched block may go to the client, and what the client's acknowledgements free.
 * <ul>
 *   <li>Blocks go to the client strictly in order, and only while the bytes sent but not yet
 *       acknowledged stay under the window (at least one block).
 *   <li>Up to {@code parallel} blocks are fetched at once, enough to cover half the window (small
 *       blocks must not cost a round trip each), and never more than a window plus
 *       {@code parallel} blocks ahead of the client.
 *   <li>Each block is reserved in the memory budget before it is fetched and stays reserved until
 *       the client acknowledges its bytes (sent bytes may still sit in a network queue).
 * </ul>
 * Not thread-safe: one component owns it.
 */
public final class DownloadWindow {
    /** {@link #nextFetch()}: nothing to fetch now. */
    public static final int NONE = -1;
    /** {@link #nextFetch()}: the next block finds no memory and nothing in flight will free any. */
    public static final int STARVED = -2;

    private final List<Integer> lengths;
    private final long window;
    private final int parallel;
    private final int ahead;
    private final TransferMemory budget;
    private final Map<Integer, Bytes> ready = new HashMap<>();
    private int nextFetch;
    private int inFlight;
    private int nextSend;
    private long sent;
    private long acked;
    private long reserved;
    /** Bytes the caller reserved ({@link #prepay}) for the next fetch. */
    private long prepaid;

    public DownloadWindow(List<Integer> lengths, int blockSize, long windowBytes, int fetchParallelism,
            TransferMemory budget) {
        this.lengths = lengths;
        this.window = Math.max(windowBytes, blockSize);
        this.parallel = (int) Math.max(fetchParallelism, Math.min(256, windowBytes / 2 / blockSize));
        this.ahead = (int) Math.max(1, window / blockSize);
        this.budget = budget;
    }

    /**
     * The next block to fetch, reserved in the budget and counted in flight; {@link #NONE} when the
     * limits say wait, {@link #STARVED} when no memory is free and nothing held will free any.
     */
    public int nextFetch() {
        if (inFlight >= parallel || nextFetch >= lengths.size() || nextFetch - nextSend >= ahead + parallel) {
            return NONE;
        }
        int length = lengths.get(nextFetch);
        if (prepaid >= length) {
            prepaid -= length;
        } else if (!budget.tryReserve(length)) {
            return inFlight == 0 && ready.isEmpty() ? STARVED : NONE;
        }
        reserved += length;
        inFlight++;
        return nextFetch++;
    }

    /**
     * The caller reserved {@code bytes} (an admission queue admitted a {@link #STARVED} download) for
     * the next fetch: {@link #nextFetch()} uses them; whatever is left goes back at the end.
     */
    public void prepay(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot prepay " + bytes + " bytes");
        }
        prepaid += bytes;
    }

    /** Bytes the block {@link #nextFetch()} would need; what a {@link #STARVED} download waits for. */
    public int nextFetchLength() {
        return nextFetch < lengths.size() ? lengths.get(nextFetch) : 0;
    }

    /** Block {@code index} arrived (checked): it waits for its turn to be sent (the window holds its bytes until then). */
    public void fetched(int index, Bytes data) {
        inFlight--;
        ready.put(index, data);
    }

    /** The client's offset of the block {@link #nextToSend()} hands out next. */
    public long sendOffset() {
        return sent;
    }

    /** The next block the client may receive now (in order, within the window), or null; the caller owns its bytes. */
    public Bytes nextToSend() {
        if (sent - acked >= window) {
            return null;
        }
        Bytes data = ready.remove(nextSend);
        if (data != null) {
            nextSend++;
            sent += data.length();
        }
        return data;
    }

    /** The client has consumed {@code consumed} bytes; returns whether that freed anything. */
    public boolean acknowledge(long consumed) {
        long newly = Math.min(consumed, sent) - acked;
        if (newly <= 0) {
            return false;
        }
        budget.release(newly);
        reserved -= newly;
        acked += newly;
        return true;
    }

    /** Bytes sent to the client that it has not acknowledged yet. */
    public long unacknowledged() {
        return sent - acked;
    }

    /** Blocks being fetched now. */
    public int fetching() {
        return inFlight;
    }

    /** Every block is sent and acknowledged. */
    public boolean finished() {
        return nextSend == lengths.size() && acked == sent;
    }

    /** Every block is sent (the last acknowledgements may be outstanding). */
    public boolean allSent() {
        return nextSend == lengths.size();
    }

    /** Releases everything still reserved, and the bytes of blocks fetched but not sent (the download ended, either way). */
    public void releaseAll() {
        budget.release(reserved + prepaid);
        reserved = 0;
        prepaid = 0;
        ready.values().forEach(Bytes::release);
        ready.clear();
    }
}
