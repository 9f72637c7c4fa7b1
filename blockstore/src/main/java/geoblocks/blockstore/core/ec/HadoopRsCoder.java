package geoblocks.blockstore.core.ec;

import java.io.IOException;
import java.nio.ByteBuffer;
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
 * Cells go in as heap ByteBuffers, which the coder turns into array offsets without copying.
 * docs/erasure-coding.md says why this library and what it measured.
 */
final class HadoopRsCoder implements ErasureCoder {
    private final ErasureCode code;
    private final RSRawEncoder encoder;
    private final RSRawDecoder decoder;
    private final ByteBuffer[] dataIn;
    private final ByteBuffer[] parityOut;
    private final ByteBuffer[] all;

    HadoopRsCoder(ErasureCode code) {
        this.code = code;
        ErasureCoderOptions options = new ErasureCoderOptions(code.data(), code.parity());
        this.encoder = new RSRawEncoder(options);
        this.decoder = new RSRawDecoder(options);
        this.dataIn = new ByteBuffer[code.data()];
        this.parityOut = new ByteBuffer[code.parity()];
        this.all = new ByteBuffer[code.fragments()];
    }

    @Override
    public ErasureCode code() {
        return code;
    }

    @Override
    public void encode(byte[][] data, byte[][] parity, int len) {
        check(data.length == code.data(), "encode takes " + code.data() + " data cells, got " + data.length);
        check(parity.length == code.parity(), "encode fills " + code.parity() + " parity cells, got " + parity.length);
        for (int i = 0; i < data.length; i++) {
            dataIn[i] = wrap(data[i], len, "data cell " + i);
        }
        for (int j = 0; j < parity.length; j++) {
            parityOut[j] = wrap(parity[j], len, "parity cell " + j);
        }
        try {
            encoder.encode(dataIn, parityOut);
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
        for (int i = 0; i < cells.length; i++) {
            all[i] = cells[i] == null ? null : wrap(cells[i], len, "cell " + i);
        }
        ByteBuffer[] outputs = new ByteBuffer[wanted.length];
        for (int j = 0; j < wanted.length; j++) {
            check(wanted[j] >= 0 && wanted[j] < code.fragments(), "wanted fragment " + wanted[j] + " is not in 0.."
                    + (code.fragments() - 1));
            all[wanted[j]] = null;
            outputs[j] = wrap(out[j], len, "output " + j);
        }
        int present = 0;
        for (ByteBuffer b : all) {
            present += b == null ? 0 : 1;
        }
        check(present >= code.data(), "reconstruct needs " + code.data() + " of the " + code.fragments()
                + " fragments, has " + present);
        try {
            decoder.decode(all, wanted, outputs);
        } catch (IOException e) {
            throw new IllegalStateException("Reed-Solomon " + code + " decode failed: " + e.getMessage(), e);
        }
    }

    private static ByteBuffer wrap(byte[] cell, int len, String what) {
        check(cell != null && cell.length >= len, what + " must hold " + len + " bytes, has "
                + (cell == null ? "none" : cell.length));
        return ByteBuffer.wrap(cell, 0, len);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
