package geoblocks.app.bench;

import geoblocks.blockstore.core.ec.ErasureCode;
import geoblocks.blockstore.core.ec.FragmentSource;
import geoblocks.blockstore.core.ec.StripeDecoder;
import geoblocks.blockstore.core.ec.StripeEncoder;
import geoblocks.blockstore.core.ec.StripeLayout;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Consumer;

/**
 * The measurements of {@code bench ec}, on the calling thread only (figures are per core): a
 * memory-bandwidth reference (array copy), then for each code and block size the block streamed
 * through a {@link StripeEncoder}, and the whole block read back through a {@link StripeDecoder}
 * with no fragment, one, and m data fragments lost (data fragments cost the most to lose: parity
 * ones are not read while the data ones are there). Each figure is block bytes per second over at
 * least {@code seconds}, after a warm-up of the same loop. Prints figures; never fails on timing.
 */
final class EcBench {
    /** One figure: what was measured and its rate. */
    record Row(String code, long blockBytes, String what, double gbPerSecond, int runs) {}

    private final int cellSize;
    private final double seconds;
    private final long seed;

    EcBench(int cellSize, double seconds, long seed) {
        this.cellSize = cellSize;
        this.seconds = seconds;
        this.seed = seed;
    }

    /** Bytes per second that System.arraycopy moves between two arrays of {@code bytes}, in GB/s. */
    double copyGbPerSecond(int bytes) {
        byte[] a = new byte[bytes];
        byte[] b = new byte[bytes];
        new Random(seed).nextBytes(a);
        return measure(() -> System.arraycopy(a, 0, b, 0, bytes), bytes)[0];
    }

    void run(ErasureCode code, long blockBytes, Consumer<Row> out) throws IOException {
        if (blockBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("block size must be < 2 GiB, was " + blockBytes);
        }
        byte[] block = new byte[(int) blockBytes];
        new Random(seed).nextBytes(block);
        StripeEncoder encoder = new StripeEncoder(code, cellSize);
        StripeEncoder.Sink discard = (i, cells, len) -> { };
        double[] enc = measure(() -> {
            encoder.write(block, 0, block.length, discard);
            encoder.finish(discard);
        }, blockBytes);
        out.accept(new Row(code.toString(), blockBytes, "encode", enc[0], (int) enc[1]));

        byte[][] fragments = new byte[code.fragments()][];
        StripeLayout layout = encode(encoder, block, fragments);
        StripeDecoder decoder = new StripeDecoder(code, cellSize);
        byte[] back = new byte[block.length];
        int[] losses = code.parity() == 1 ? new int[] {0, 1} : new int[] {0, 1, code.parity()};
        for (int lost : losses) {
            FragmentSource[] sources = new FragmentSource[code.fragments()];
            for (int i = lost; i < sources.length; i++) {
                sources[i] = FragmentSource.of(fragments[i]);
            }
            int[] at = new int[1];
            double[] dec = measure(() -> {
                at[0] = 0;
                decoder.read(layout, sources, 0, blockBytes, (b, off, len) -> {
                    System.arraycopy(b, off, back, at[0], len);
                    at[0] += len;
                });
            }, blockBytes);
            if (!Arrays.equals(block, back)) {
                throw new IllegalStateException("decode with " + lost + " lost gave other bytes: the coder is broken");
            }
            out.accept(new Row(code.toString(), blockBytes, "decode, " + lost + " lost", dec[0], (int) dec[1]));
        }
    }

    private StripeLayout encode(StripeEncoder encoder, byte[] block, byte[][] fragments) throws IOException {
        StripeLayout layout = new StripeLayout(encoder.code(), cellSize, block.length);
        for (int i = 0; i < fragments.length; i++) {
            fragments[i] = new byte[(int) layout.fragmentLength()];
        }
        StripeEncoder.Sink keep = (s, cells, len) -> {
            for (int i = 0; i < fragments.length; i++) {
                System.arraycopy(cells[i], 0, fragments[i], (int) layout.fragmentOffset(s), len);
            }
        };
        encoder.write(block, 0, block.length, keep);
        return encoder.finish(keep);
    }

    interface Op {
        void run() throws IOException;
    }

    /** {GB/s, runs}: runs {@code op} for a warm-up of {@code seconds}, then counts runs over at least {@code seconds}. */
    private double[] measure(Op op, long bytesPerRun) {
        try {
            long warm = System.nanoTime();
            while (System.nanoTime() - warm < seconds * 1e9) {
                op.run();
            }
            long start = System.nanoTime();
            int runs = 0;
            long elapsed;
            do {
                op.run();
                runs++;
                elapsed = System.nanoTime() - start;
            } while (elapsed < seconds * 1e9);
            return new double[] {(double) bytesPerRun * runs / elapsed, runs};
        } catch (IOException e) {
            throw new IllegalStateException("in-memory fragments failed to read: " + e.getMessage(), e);
        }
    }
}
