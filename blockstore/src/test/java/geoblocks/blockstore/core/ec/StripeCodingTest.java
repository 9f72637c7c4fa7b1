package geoblocks.blockstore.core.ec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.blockstore.core.ec.FragmentException.Reason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Encode, then decode from every choice of k surviving fragments; rebuild each lost fragment. */
class StripeCodingTest {
    private static final int CELL = 8;

    static List<ErasureCode> codes() {
        return List.of(new ErasureCode(2, 1), new ErasureCode(3, 1), new ErasureCode(3, 2), new ErasureCode(4, 2));
    }

    /** Sizes for a code: empty, one byte, not a multiple of k, not a multiple of the cell, whole stripes, stripes and a tail. */
    static int[] sizes(ErasureCode c) {
        int w = c.data() * CELL;
        return new int[] {0, 1, c.data() + 1, CELL + 3, w, 3 * w, 3 * w + 1, 4 * w - 1, 5 * w + CELL + 5};
    }

    @ParameterizedTest
    @MethodSource("codes")
    void everyChoiceOfKFragments_givesTheBlockBack(ErasureCode code) throws IOException {
        Random random = new Random(47);
        StripeEncoder enc = new StripeEncoder(code, CELL);
        StripeDecoder dec = new StripeDecoder(code, CELL);
        for (int size : sizes(code)) {
            byte[] block = bytes(random, size);
            Encoded e = encode(enc, block, random);
            assertEquals(size, e.layout.blockLength());
            for (byte[] f : e.fragments) {
                assertEquals(e.layout.fragmentLength(), f.length);
            }
            for (List<Integer> kept : subsets(code.fragments(), code.data())) {
                FragmentSource[] sources = sources(e.fragments, kept);
                assertArrayEquals(block, read(dec, e.layout, sources, 0, size), code + " size " + size + " kept " + kept);
                if (size > 2) {
                    int from = random.nextInt(size - 1);
                    int len = 1 + random.nextInt(size - from);
                    assertArrayEquals(slice(block, from, len), read(dec, e.layout, sources, from, len),
                            code + " size " + size + " kept " + kept + " range " + from + "+" + len);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("codes")
    void eachLostFragment_isRebuiltExactlyFromEveryChoiceOfKOthers(ErasureCode code) throws IOException {
        Random random = new Random(48);
        StripeEncoder enc = new StripeEncoder(code, CELL);
        StripeDecoder dec = new StripeDecoder(code, CELL);
        byte[] block = bytes(random, 4 * code.data() * CELL + 5);
        Encoded e = encode(enc, block, random);
        for (int lost = 0; lost < code.fragments(); lost++) {
            for (List<Integer> kept : subsets(code.fragments(), code.data())) {
                if (kept.contains(lost)) {
                    continue;
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                dec.rebuild(e.layout, sources(e.fragments, kept), lost, out::write);
                assertArrayEquals(e.fragments[lost], out.toByteArray(), code + " lost " + lost + " kept " + kept);
            }
        }
        dec.verify(e.layout, sources(e.fragments, all(code)));
    }

    @Test
    void tooFewFragments_isRefusedWithTooFew() throws IOException {
        ErasureCode code = new ErasureCode(3, 2);
        Encoded e = encode(new StripeEncoder(code, CELL), bytes(new Random(1), 100), new Random(2));
        StripeDecoder dec = new StripeDecoder(code, CELL);
        FragmentSource[] two = sources(e.fragments, List.of(0, 4));
        assertEquals(Reason.TOO_FEW, assertThrows(FragmentException.class,
                () -> dec.read(e.layout, two, 0, 100, (b, o, l) -> { })).reason());
        FragmentSource[] three = sources(e.fragments, List.of(0, 1, 4));
        assertEquals(Reason.TOO_FEW, assertThrows(FragmentException.class,
                () -> dec.rebuild(e.layout, three, 1, (b, o, l) -> { })).reason());
        assertEquals(Reason.TOO_FEW, assertThrows(FragmentException.class, () -> dec.verify(e.layout, three)).reason());
    }

    @Test
    void aFragmentOfTheWrongLength_isRefusedWithWrongLength() throws IOException {
        ErasureCode code = new ErasureCode(3, 1);
        Encoded e = encode(new StripeEncoder(code, CELL), bytes(new Random(3), 50), new Random(4));
        FragmentSource[] s = sources(e.fragments, List.of(0, 1, 2, 3));
        s[2] = FragmentSource.of(new byte[e.fragments[2].length - 1]);
        StripeDecoder dec = new StripeDecoder(code, CELL);
        assertEquals(Reason.WRONG_LENGTH, assertThrows(FragmentException.class,
                () -> dec.read(e.layout, s, 0, 50, (b, o, l) -> { })).reason());
        assertEquals(Reason.BAD_INDEX, assertThrows(FragmentException.class,
                () -> dec.read(e.layout, new FragmentSource[3], 0, 50, (b, o, l) -> { })).reason());
        assertEquals(Reason.BAD_INDEX, assertThrows(FragmentException.class,
                () -> dec.rebuild(e.layout, sources(e.fragments, List.of(0, 1, 2)), 4, (b, o, l) -> { })).reason());
    }

    @Test
    void aCorruptFragment_failsVerifyWithMismatch() throws IOException {
        ErasureCode code = new ErasureCode(4, 2);
        Encoded e = encode(new StripeEncoder(code, CELL), bytes(new Random(5), 200), new Random(6));
        e.fragments[1][9] ^= 0x40; // stripe 1 of data fragment 1
        StripeDecoder dec = new StripeDecoder(code, CELL);
        assertEquals(Reason.MISMATCH, assertThrows(FragmentException.class,
                () -> dec.verify(e.layout, sources(e.fragments, all(code)))).reason());
    }

    @Test
    void oneEncoder_encodesBlockAfterBlock_fromByteBuffers() throws IOException {
        ErasureCode code = new ErasureCode(3, 2);
        StripeEncoder enc = new StripeEncoder(code, CELL);
        StripeDecoder dec = new StripeDecoder(code, CELL);
        Random random = new Random(7);
        for (int size : new int[] {77, 0, 24, 5}) {
            byte[] block = bytes(random, size);
            Collector c = new Collector(code);
            enc.write(ByteBuffer.wrap(block), c);
            StripeLayout layout = enc.finish(c);
            assertArrayEquals(block, read(dec, layout, sources(c.fragments(), List.of(2, 3, 4)), 0, size));
        }
    }

    @Test
    void withEveryDataFragment_aRangeReadReadsOnlyItsBytes_andNoParity() throws IOException {
        ErasureCode code = new ErasureCode(3, 2);
        byte[] block = bytes(new Random(8), 10 * 3 * CELL + 7);
        Encoded e = encode(new StripeEncoder(code, CELL), block, new Random(9));
        long[] read = new long[code.fragments()];
        FragmentSource[] counted = new FragmentSource[code.fragments()];
        for (int i = 0; i < counted.length; i++) {
            int f = i;
            FragmentSource s = FragmentSource.of(e.fragments[i]);
            counted[i] = new FragmentSource() {
                @Override
                public long length() {
                    return s.length();
                }

                @Override
                public void read(long offset, byte[] dst, int len) throws IOException {
                    read[f] += len;
                    s.read(offset, dst, len);
                }
            };
        }
        StripeDecoder dec = new StripeDecoder(code, CELL);
        assertArrayEquals(slice(block, 37, 50), read(dec, e.layout, counted, 37, 50));
        assertEquals(50, read[0] + read[1] + read[2]);
        assertEquals(0, read[3] + read[4]);
    }

    record Encoded(StripeLayout layout, byte[][] fragments) {}

    /** Collects the stripes an encoder emits into whole fragments. */
    static final class Collector implements StripeEncoder.Sink {
        final ByteArrayOutputStream[] out;
        int next;

        Collector(ErasureCode code) {
            out = new ByteArrayOutputStream[code.fragments()];
            for (int i = 0; i < out.length; i++) {
                out[i] = new ByteArrayOutputStream();
            }
        }

        @Override
        public void stripe(int index, byte[][] cells, int cellLength) {
            assertEquals(next++, index);
            for (int i = 0; i < out.length; i++) {
                out[i].write(cells[i], 0, cellLength);
            }
        }

        byte[][] fragments() {
            byte[][] f = new byte[out.length][];
            for (int i = 0; i < f.length; i++) {
                f[i] = out[i].toByteArray();
            }
            return f;
        }
    }

    /** Encodes {@code block} fed in chunks of random sizes (seeded). */
    static Encoded encode(StripeEncoder enc, byte[] block, Random random) throws IOException {
        Collector c = new Collector(enc.code());
        int at = 0;
        while (at < block.length) {
            int n = Math.min(block.length - at, 1 + random.nextInt(3 * CELL));
            enc.write(block, at, n, c);
            at += n;
        }
        StripeLayout layout = enc.finish(c);
        return new Encoded(layout, c.fragments());
    }

    static byte[] read(StripeDecoder dec, StripeLayout layout, FragmentSource[] sources, long from, long len)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        dec.read(layout, sources, from, len, out::write);
        return out.toByteArray();
    }

    static FragmentSource[] sources(byte[][] fragments, List<Integer> kept) {
        FragmentSource[] s = new FragmentSource[fragments.length];
        for (int i : kept) {
            s[i] = FragmentSource.of(fragments[i]);
        }
        return s;
    }

    static List<Integer> all(ErasureCode code) {
        List<Integer> a = new ArrayList<>();
        for (int i = 0; i < code.fragments(); i++) {
            a.add(i);
        }
        return a;
    }

    /** Every subset of {@code size} of 0..n-1, in lexicographic order. */
    static List<List<Integer>> subsets(int n, int size) {
        List<List<Integer>> out = new ArrayList<>();
        for (int mask = 0; mask < 1 << n; mask++) {
            if (Integer.bitCount(mask) == size) {
                List<Integer> s = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    if ((mask & 1 << i) != 0) {
                        s.add(i);
                    }
                }
                out.add(s);
            }
        }
        return out;
    }

    static byte[] bytes(Random random, int size) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        return b;
    }

    static byte[] slice(byte[] b, int from, int len) {
        byte[] s = new byte[len];
        System.arraycopy(b, from, s, 0, len);
        return s;
    }
}
