package geoblocks.blockstore.core.ec;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;

/**
 * {@link ErasureCoder} on Apache Hadoop's pure-Java Reed-Solomon raw coder ({@code RSRawEncoder} and
 * {@code RSRawDecoder} of hadoop-common, the coder HDFS falls back to without ISA-L): a systematic
 * code whose parity rows are a Cauchy matrix over GF(2^8) (polynomial 0x11d), decoded by inverting the
 * k x k sub-matrix of the fragments present (cached while the same fragments are missing). It loads
 * no class of hadoop-common outside {@code org.apache.hadoop.io.erasurecode} apart from
 * {@code HadoopIllegalArgumentException}, which is why node.jar keeps only those (application/pom.xml).
 *
 * <p>The library's array API codes whole arrays: cells whose arrays are exactly {@code len} long (every
 * full stripe of {@link StripeEncoder} and {@link StripeDecoder}) go in as they are; shorter cells (the
 * last stripe of a block) are copied through arrays of their length, kept for the next block.
 * docs/erasure-coding.md says why this library and what it measured.
 */
final class HadoopRsCoder implements ErasureCoder {
    private final ErasureCode code;
    private final RSRawEncoder encoder;
    private final RSRawDecoder decoder;
    private final byte[][] all;
    private byte[][] shortCells = new byte[0][];

    HadoopRsCoder(ErasureCode code) {
        this.code = code;
        ErasureCoderOptions options = new ErasureCoderOptions(code.data(), code.parity());
        this.encoder = new RSRawEncoder(options);
        this.decoder = new RSRawDecoder(options);
        this.all = new byte[code.fragments()][];
    }

    @Override
    public ErasureCode code() {
        return code;
    }

    @Override
    public void encode(byte[][] data, byte[][] parity, int len) {
        check(data.length == code.data(), "encode takes " + code.data() + " data cells, got " + data.length);
        check(parity.length == code.parity(), "encode fills " + code.parity() + " parity cells, got " + parity.length);
        boolean exact = true;
        for (int i = 0; i < data.length; i++) {
            exact &= fits(data[i], len, "data cell " + i);
        }
        for (int j = 0; j < parity.length; j++) {
            exact &= fits(parity[j], len, "parity cell " + j);
        }
        try {
            if (exact) {
                encoder.encode(data, parity);
                return;
            }
            byte[][] s = shortCells(len);
            byte[][] d = Arrays.copyOfRange(s, 0, code.data());
            byte[][] p = Arrays.copyOfRange(s, code.data(), code.fragments());
            for (int i = 0; i < d.length; i++) {
                System.arraycopy(data[i], 0, d[i], 0, len);
            }
            encoder.encode(d, p);
            for (int j = 0; j < p.length; j++) {
                System.arraycopy(p[j], 0, parity[j], 0, len);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Reed-Solomon " + code + " encode failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void reconstruct(byte[][] cells, int[] wanted, byte[][] out, int len) {
        check(cells.length == code.fragments(), "reconstruct takes " + code.fragments() + " cells (null when absent), got "
                + cells.length);
        check(wanted.length == out.length && wanted.length > 0, "reconstruct needs one output per wanted fragment, got "
                + wanted.length + " wanted and " + out.length + " outputs");
        System.arraycopy(cells, 0, all, 0, cells.length);
        boolean exact = true;
        for (int j = 0; j < wanted.length; j++) {
            check(wanted[j] >= 0 && wanted[j] < code.fragments(), "wanted fragment " + wanted[j] + " is not in 0.."
                    + (code.fragments() - 1));
            all[wanted[j]] = null;
            exact &= fits(out[j], len, "output " + j);
        }
        int present = 0;
        for (int i = 0; i < all.length; i++) {
            if (all[i] != null) {
                present++;
                exact &= fits(all[i], len, "cell " + i);
            }
        }
        check(present >= code.data(), "reconstruct needs " + code.data() + " of the " + code.fragments()
                + " fragments, has " + present);
        try {
            if (exact) {
                decoder.decode(all, wanted, out);
                return;
            }
            byte[][] s = shortCells(len);
            for (int i = 0; i < all.length; i++) {
                if (all[i] != null) {
                    System.arraycopy(all[i], 0, s[i], 0, len);
                    all[i] = s[i];
                }
            }
            byte[][] o = new byte[wanted.length][];
            for (int j = 0; j < wanted.length; j++) {
                o[j] = s[wanted[j]];
            }
            decoder.decode(all, wanted, o);
            for (int j = 0; j < wanted.length; j++) {
                System.arraycopy(o[j], 0, out[j], 0, len);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Reed-Solomon " + code + " decode failed: " + e.getMessage(), e);
        } finally {
            Arrays.fill(all, null);
        }
    }

    /** k + m arrays of exactly {@code len} bytes, reused while the length repeats. */
    private byte[][] shortCells(int len) {
        if (shortCells.length == 0 || shortCells[0].length != len) {
            shortCells = new byte[code.fragments()][len];
        }
        return shortCells;
    }

    /** Whether {@code cell} is exactly {@code len} long; refuses one shorter. */
    private static boolean fits(byte[] cell, int len, String what) {
        check(cell != null && cell.length >= len, what + " must hold " + len + " bytes, has "
                + (cell == null ? "none" : cell.length));
        return cell.length == len;
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
