package geoblocks.ledbat.component;

import java.util.Map;

/** Not a test: {@code java -cp ... LoopbackBench MB streams} runs a loopback transfer and prints Mbit/s. */
public final class LoopbackBench {
    private LoopbackBench() {}

    public static void main(String[] args) throws Exception {
        long mb = args.length > 0 ? Long.parseLong(args[0]) : 64;
        int streams = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        long t0 = System.nanoTime();
        TransferResult r = Loopback.run(Loopback.addresses(), null, streams, mb << 20, 120, Map.of());
        double s = (System.nanoTime() - t0) / 1e9;
        long total = r.receivedBytes.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("received %d bytes in %.2f s = %.1f Mbit/s; open=%d corrupt=%d failures=%d %s%n", total, s,
                total * 8 / s / 1e6, r.done.getCount(), r.corruptBytes.get(), r.failures.get(), r.firstFailure);
        System.exit(0);
    }
}
