package geoblocks.network.udp;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;

/**
 * Micro-benchmark (not a test) of one seal plus one open of a 1,400-byte body per datagram, for
 * both modes and heap/direct buffers; prints ns/datagram, body MB/s and bytes allocated per
 * datagram after a warm-up. Run: {@code java -cp target/classes:target/test-classes
 * geoblocks.network.udp.SealerBench [iterations]}.
 */
public final class SealerBench {

    private static final int BODY = 1400;

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        System.out.printf("JDK %s, %d datagrams of %d bytes per row%n", System.getProperty("java.version"), n, BODY);
        System.out.printf("%-8s %-6s %-12s %12s %10s %12s%n", "mode", "buf", "open", "ns/datagram", "MB/s", "B alloc/dg");
        for (boolean encrypt : new boolean[] {true, false}) {
            for (boolean direct : new boolean[] {false, true}) {
                run(encrypt, direct, false, n);
                if (!encrypt) {
                    run(false, direct, true, n);
                }
            }
        }
    }

    private static void run(boolean encrypt, boolean direct, boolean zeroCopy, int n) throws Exception {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (i * 31 + 7);
        }
        byte[] salt = {9, 8, 7, 6};
        DatagramSealer tx = new DatagramSealer(key, salt, 0x11223344, encrypt);
        DatagramSealer rx = new DatagramSealer(key, salt, 0x11223344, encrypt);
        ByteBuffer body = alloc(BODY, direct);
        for (int i = 0; i < BODY; i++) {
            body.put(i, (byte) i);
        }
        ByteBuffer wire = alloc(BODY + DatagramSealer.OVERHEAD, direct);
        ByteBuffer plain = alloc(BODY, direct);
        long[] seq = {0};
        long sink = loop(tx, rx, body, wire, plain, zeroCopy, seq, n / 2); // warm-up
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long a0 = mx.getThreadAllocatedBytes(tid);
        long t0 = System.nanoTime();
        sink += loop(tx, rx, body, wire, plain, zeroCopy, seq, n);
        long ns = System.nanoTime() - t0;
        long alloc = mx.getThreadAllocatedBytes(tid) - a0;
        System.out.printf("%-8s %-6s %-12s %12.0f %10.0f %12.0f%s%n", encrypt ? "encrypt" : "auth",
                direct ? "direct" : "heap", zeroCopy ? "verify()" : "open()", (double) ns / n,
                (double) BODY * n / ns * 1e9 / 1e6, (double) alloc / n, sink == 42 ? "!" : "");
    }

    private static long loop(DatagramSealer tx, DatagramSealer rx, ByteBuffer body, ByteBuffer wire,
            ByteBuffer plain, boolean zeroCopy, long[] seq, int n) throws Exception {
        long sink = 0;
        for (int i = 0; i < n; i++) {
            long s = seq[0]++;
            body.clear();
            wire.clear();
            tx.seal(s, body, wire);
            wire.flip();
            if (zeroCopy) {
                sink += rx.verify(wire);
                sink += wire.get(wire.position());
            } else {
                plain.clear();
                sink += rx.open(wire, plain);
                sink += plain.get(0);
            }
        }
        return sink;
    }

    private static ByteBuffer alloc(int n, boolean direct) {
        return direct ? ByteBuffer.allocateDirect(n) : ByteBuffer.allocate(n);
    }
}
