package geoblocks.ledbat.core;

/**
 * A growable double-ended queue of (long, long) pairs without boxing, for the send window's
 * transmission order and retransmission queue and the controller's sliding windows. Invariant:
 * size() elements between head and tail in insertion order.
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

    /** The i-th oldest element's first value (0 = the head). */
    long a(int i) {
        return a[(head + i) & (a.length - 1)];
    }

    /** The i-th oldest element's second value. */
    long b(int i) {
        return b[(head + i) & (a.length - 1)];
    }

    void poll() {
        if (size == 0) {
            throw new IllegalStateException("empty");
        }
        head = (head + 1) & (a.length - 1);
        size--;
    }

    /** The newest element's first value. */
    long peekLastA() {
        return a[(head + size - 1) & (a.length - 1)];
    }

    /** The newest element's second value. */
    long peekLastB() {
        return b[(head + size - 1) & (a.length - 1)];
    }

    /** Removes the newest element. */
    void pollLast() {
        if (size == 0) {
            throw new IllegalStateException("empty");
        }
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
