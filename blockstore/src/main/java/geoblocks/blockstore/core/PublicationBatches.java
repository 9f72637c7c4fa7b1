package geoblocks.blockstore.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Manifest publications to peers, batched per peer: at most {@code window} batches are in flight
 * to one peer; what is offered while the window is full waits, in order, and leaves as one batch
 * (at most {@code maxItems} items and {@code maxBytes} bytes, a single larger item alone) when an
 * answer frees a slot. A lone writer never waits (its publication leaves at once); under load
 * the publications of many puts share one message, one durable write and one answer at the peer.
 * Pure and single-threaded: the owner sends the batches and reports their answers.
 */
public final class PublicationBatches<T> {
    /** Items to send to {@code peer} in one message. */
    public record Batch<T>(String peer, List<T> items) {}

    private record Queued<T>(T item, int bytes) {}

    private static final class Peer<T> {
        final ArrayDeque<Queued<T>> queue = new ArrayDeque<>();
        int inFlight;
    }

    private final int window;
    private final int maxItems;
    private final long maxBytes;
    private final Map<String, Peer<T>> peers = new HashMap<>();
    private long batches;
    private long items;

    public PublicationBatches(int window, int maxItems, long maxBytes) {
        if (window < 1 || maxItems < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("window, items and bytes per batch must be positive: " + window + ", "
                    + maxItems + ", " + maxBytes);
        }
        this.window = window;
        this.maxItems = maxItems;
        this.maxBytes = maxBytes;
    }

    /** Queues {@code item} ({@code bytes} long) for {@code peer}; returns the batch to send now, or null. */
    public Batch<T> offer(String peer, T item, int bytes) {
        Peer<T> p = peers.computeIfAbsent(peer, x -> new Peer<>());
        p.queue.add(new Queued<>(item, bytes));
        return next(peer, p);
    }

    /**
     * A batch sent to {@code peer} was answered (stored, refused or timed out): its slot is free.
     * Returns the batch to send now, or null.
     */
    public Batch<T> answered(String peer) {
        Peer<T> p = peers.get(peer);
        if (p == null || p.inFlight == 0) {
            throw new IllegalStateException("no batch in flight to " + peer);
        }
        p.inFlight--;
        Batch<T> b = next(peer, p);
        if (b == null && p.inFlight == 0 && p.queue.isEmpty()) {
            peers.remove(peer);
        }
        return b;
    }

    private Batch<T> next(String peer, Peer<T> p) {
        if (p.inFlight >= window || p.queue.isEmpty()) {
            return null;
        }
        List<T> out = new ArrayList<>(Math.min(p.queue.size(), maxItems));
        long size = 0;
        while (!p.queue.isEmpty() && out.size() < maxItems
                && (out.isEmpty() || size + p.queue.peek().bytes() <= maxBytes)) {
            Queued<T> q = p.queue.poll();
            out.add(q.item());
            size += q.bytes();
        }
        p.inFlight++;
        batches++;
        items += out.size();
        return new Batch<>(peer, out);
    }

    /** Items waiting (not yet sent) for {@code peer}. */
    public int queued(String peer) {
        Peer<T> p = peers.get(peer);
        return p == null ? 0 : p.queue.size();
    }

    /** Batches in flight to {@code peer}. */
    public int inFlight(String peer) {
        Peer<T> p = peers.get(peer);
        return p == null ? 0 : p.inFlight;
    }

    /** Batches sent since start. */
    public long batches() {
        return batches;
    }

    /** Items sent since start (items / batches is the mean batch size). */
    public long items() {
        return items;
    }
}
