package geoblocks.ledbat.core;

/**
 * A growable FIFO of (long, long) pairs without boxing, for the send window's transmission order
 * and retransmission queue. Invariant: size() elements between head and tail in insertion order.
 */
final class LongRing {
    private long[] a = new long[64];
    private long[] b = new long[64];
    private int head;
    private int size;

    void add(long x, long y) {
        if (size == a.length) {
            grow();
        }
        int i = (head + size) & (a.length - 1);
        a[i] = x;
        b[i] = y;
        size++;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    long peekA() {
        return a[head];
    }

    long peekB() {
        return b[head];
    }

    void poll() {
        if (size == 0) {
            throw new IllegalStateException("empty");
        }
        head = (head + 1) & (a.length - 1);
        size--;
    }

    void clear() {
        head = 0;
        size = 0;
    }

    private void grow() {
        long[] na = new long[a.length * 2];
        long[] nb = new long[a.length * 2];
        for (int i = 0; i < size; i++) {
            na[i] = a[(head + i) & (a.length - 1)];
            nb[i] = b[(head + i) & (a.length - 1)];
        }
        a = na;
        b = nb;
        head = 0;
    }
}
