package geoblocks.node.s3.auth;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A streaming decoder of S3's {@code aws-chunked} content encoding (AWS docs: "Signature Calculations
 * for the Authorization Header: Transferring Payload in Multiple Chunks"), for the payload hashes
 * {@code STREAMING-UNSIGNED-PAYLOAD-TRAILER}, {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD} and
 * {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER}:
 *
 * <pre>
 * HEX-SIZE[;chunk-signature=SIG]\r\n DATA \r\n   ... repeated ...
 * 0[;chunk-signature=SIG]\r\n
 * [name:value\r\n ...] [x-amz-trailer-signature:SIG\r\n]   (the -TRAILER variants)
 * \r\n
 * </pre>
 *
 * Bytes are fed as they arrive, split anywhere; the data bytes are handed on as slices of the input
 * (nothing is buffered but one header or trailer line, at most {@link #MAX_LINE} bytes). Signed
 * variants check every chunk's signature, chained from the request's seed signature, and the
 * trailer's. Framing errors are {@code IncompleteBody} (400), signature errors
 * {@code SignatureDoesNotMatch} (403). Pure: no I/O.
 */
public final class AwsChunked {
    /** Longest header or trailer line accepted. */
    static final int MAX_LINE = 4096;
    /** Most trailer lines accepted. */
    static final int MAX_TRAILERS = 16;
    static final String UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";
    static final String SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
    static final String SIGNED_TRAILER = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER";
    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final HexFormat HEX = HexFormat.of();

    /** Which variant: whether chunks are signed and whether trailers follow the last chunk. */
    public enum Mode {
        UNSIGNED_TRAILER(false, true), SIGNED(true, false), SIGNED_TRAILER(true, true);

        final boolean signed;
        public final boolean trailer;

        Mode(boolean signed, boolean trailer) {
            this.signed = signed;
            this.trailer = trailer;
        }

        public boolean signed() {
            return signed;
        }
    }

    /** The mode of payload hash {@code h}, null when it is not a streaming one; NotImplemented for other streaming ones. */
    public static Mode mode(String h) throws S3Exception {
        if (h == null || !h.startsWith("STREAMING-")) {
            return null;
        }
        return switch (h) {
            case UNSIGNED_TRAILER -> Mode.UNSIGNED_TRAILER;
            case SIGNED -> Mode.SIGNED;
            case SIGNED_TRAILER -> Mode.SIGNED_TRAILER;
            default -> throw new S3Exception(S3Error.NOT_IMPLEMENTED, "the streaming payload " + h + " is not supported"
                    + " (" + UNSIGNED_TRAILER + ", " + SIGNED + " and " + SIGNED_TRAILER + " are)");
        };
    }

    /** What chains the chunk signatures of a signed request: its signing key, date, scope and seed signature. */
    public record Seed(byte[] signingKey, String amzDate, String scope, String signature) {}

    /** Receives the decoded data, as slices of the input. */
    public interface Out {
        void data(ByteBuffer b) throws Exception;
    }

    private enum State { HEADER, DATA, DATA_END, TRAILER, DONE }

    private final Mode mode;
    private final Seed seed;
    private final long maxDecoded;
    private State state = State.HEADER;
    private final StringBuilder line = new StringBuilder();
    private boolean sawCr;
    private long remaining;
    private long decoded;
    private String chunkSignature;
    private String previous;
    private MessageDigest chunkHash;
    private final Map<String, String> trailers = new LinkedHashMap<>();
    private final StringBuilder trailerText = new StringBuilder();
    private String trailerSignature;

    /** {@code seed}: for the signed modes (null otherwise); {@code maxDecoded}: the decoded length announced. */
    public AwsChunked(Mode mode, Seed seed, long maxDecoded) {
        if (mode.signed && seed == null) {
            throw new IllegalArgumentException("a signed aws-chunked payload needs the request's seed signature");
        }
        this.mode = mode;
        this.seed = seed;
        this.previous = seed == null ? null : seed.signature();
        this.maxDecoded = maxDecoded;
        if (mode.signed) {
            chunkHash = sha256();
        }
    }

    /** Decodes the remaining bytes of {@code in} (consumed), handing data to {@code out}. */
    public void feed(ByteBuffer in, Out out) throws Exception {
        while (in.hasRemaining()) {
            switch (state) {
                case HEADER, DATA_END, TRAILER -> {
                    String l = readLine(in);
                    if (l != null) {
                        onLine(l);
                    }
                }
                case DATA -> {
                    int n = (int) Math.min(remaining, in.remaining());
                    ByteBuffer slice = in.slice();
                    slice.limit(n);
                    in.position(in.position() + n);
                    if (chunkHash != null) {
                        chunkHash.update(slice.duplicate());
                    }
                    remaining -= n;
                    decoded += n;
                    out.data(slice);
                    if (remaining == 0) {
                        state = State.DATA_END;
                    }
                }
                case DONE -> throw framing("bytes follow the final chunk of the aws-chunked body");
            }
        }
    }

    /** Checks the body ended where the encoding ends; returns the trailers (lower-case names, in order). */
    public Map<String, String> finish() throws S3Exception {
        if (state != State.DONE) {
            throw framing("the aws-chunked body ended before its final chunk"
                    + (mode.trailer ? " and trailers" : ""));
        }
        return trailers;
    }

    public boolean done() {
        return state == State.DONE;
    }

    /** Bytes of data decoded so far. */
    public long decoded() {
        return decoded;
    }

    /** The next line (without CRLF) once complete, else null with the partial line kept. */
    private String readLine(ByteBuffer in) throws S3Exception {
        while (in.hasRemaining()) {
            byte b = in.get();
            if (sawCr) {
                if (b != '\n') {
                    throw framing("a CR not followed by LF in the aws-chunked framing");
                }
                sawCr = false;
                String l = line.toString();
                line.setLength(0);
                return l;
            }
            if (b == '\r') {
                sawCr = true;
            } else if (b == '\n') {
                throw framing("a line of the aws-chunked framing ends in LF without CR");
            } else {
                if (line.length() >= MAX_LINE) {
                    throw framing("a line of the aws-chunked framing is longer than " + MAX_LINE + " bytes");
                }
                line.append((char) (b & 0xff));
            }
        }
        return null;
    }

    private void onLine(String l) throws S3Exception {
        switch (state) {
            case HEADER -> chunkHeader(l);
            case DATA_END -> {
                if (!l.isEmpty()) {
                    throw framing("a chunk's data is longer than its size says");
                }
                if (lastChunk) {
                    state = State.DONE;
                } else {
                    endChunk();
                    state = State.HEADER;
                }
            }
            case TRAILER -> trailer(l);
            default -> throw new IllegalStateException(state.toString());
        }
    }

    private void chunkHeader(String l) throws S3Exception {
        int semi = l.indexOf(';');
        String hex = (semi < 0 ? l : l.substring(0, semi)).trim();
        if (hex.isEmpty() || hex.length() > 15) {
            throw framing("the chunk size '" + hex + "' is not 1 to 15 hex digits");
        }
        long size;
        try {
            size = Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw framing("the chunk size '" + hex + "' is not hex");
        }
        if (size < 0 || decoded + size > maxDecoded) {
            throw framing("the chunks hold more than x-amz-decoded-content-length (" + maxDecoded + ") bytes");
        }
        chunkSignature = null;
        if (semi >= 0) {
            for (String ext : l.substring(semi + 1).split(";")) {
                int eq = ext.indexOf('=');
                if (eq > 0 && ext.substring(0, eq).trim().equals("chunk-signature")) {
                    chunkSignature = ext.substring(eq + 1).trim();
                }
            }
        }
        if (mode.signed && chunkSignature == null) {
            throw new S3Exception(S3Error.SIGNATURE_DOES_NOT_MATCH, "a chunk of a signed aws-chunked body has no chunk-signature");
        }
        remaining = size;
        if (size > 0) {
            state = State.DATA;
            return;
        }
        endChunk(); // the final chunk: its signature covers no data
        if (mode.trailer) {
            state = State.TRAILER;
        } else {
            state = State.DATA_END;
            lastChunk = true;
        }
    }

    /** Set after a final chunk without trailers: the empty line that follows ends the body. */
    private boolean lastChunk;

    private void endChunk() throws S3Exception {
        if (!mode.signed) {
            return;
        }
        String dataHash = HEX.formatHex(chunkHash.digest());
        String toSign = "AWS4-HMAC-SHA256-PAYLOAD\n" + seed.amzDate() + "\n" + seed.scope() + "\n" + previous + "\n"
                + EMPTY_SHA256 + "\n" + dataHash;
        previous = verify(toSign, chunkSignature, "chunk");
    }

    private void trailer(String l) throws S3Exception {
        if (l.isEmpty()) {
            if (mode.signed) {
                if (trailerSignature == null) {
                    throw new S3Exception(S3Error.SIGNATURE_DOES_NOT_MATCH, "the trailers of a signed aws-chunked body"
                            + " have no x-amz-trailer-signature");
                }
                String toSign = "AWS4-HMAC-SHA256-TRAILER\n" + seed.amzDate() + "\n" + seed.scope() + "\n" + previous + "\n"
                        + HEX.formatHex(sha256().digest(trailerText.toString().getBytes(StandardCharsets.ISO_8859_1)));
                verify(toSign, trailerSignature, "trailer");
            }
            state = State.DONE;
            return;
        }
        int colon = l.indexOf(':');
        if (colon <= 0) {
            throw framing("the trailer line '" + l + "' is not NAME:VALUE");
        }
        String name = l.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = l.substring(colon + 1).trim();
        if (name.equals("x-amz-trailer-signature")) {
            trailerSignature = value;
            return;
        }
        if (trailerSignature != null) {
            throw framing("a trailer follows x-amz-trailer-signature");
        }
        if (trailers.size() >= MAX_TRAILERS) {
            throw framing("more than " + MAX_TRAILERS + " trailers");
        }
        trailers.put(name, value);
        trailerText.append(name).append(':').append(value).append('\n');
    }

    private String verify(String toSign, String sent, String what) throws S3Exception {
        String expected = HEX.formatHex(SigV4.hmac(seed.signingKey(), toSign));
        if (sent == null || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                sent.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII))) {
            throw new S3Exception(S3Error.SIGNATURE_DOES_NOT_MATCH, "the " + what + " signature of the aws-chunked body"
                    + " does not match (chunk " + (decoded) + " bytes in)");
        }
        return expected;
    }

    private static S3Exception framing(String why) {
        return new S3Exception(S3Error.INCOMPLETE_BODY, why);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Encodes {@code data} as aws-chunked with chunks of {@code chunk} bytes (for tests and clients):
     * signed when {@code seed} is given, with {@code trailers} after the last chunk when not null.
     */
    static byte[] encode(byte[] data, int chunk, Seed seed, Map<String, String> trailers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String prev = seed == null ? null : seed.signature();
        int off = 0;
        boolean last = false;
        while (!last) {
            int n = Math.min(chunk, data.length - off);
            last = n == 0;
            String head = Integer.toHexString(n);
            if (seed != null) {
                String toSign = "AWS4-HMAC-SHA256-PAYLOAD\n" + seed.amzDate() + "\n" + seed.scope() + "\n" + prev + "\n"
                        + EMPTY_SHA256 + "\n" + HEX.formatHex(sha256().digest(Arrays.copyOfRange(data, off, off + n)));
                prev = HEX.formatHex(SigV4.hmac(seed.signingKey(), toSign));
                head += ";chunk-signature=" + prev;
            }
            out.writeBytes((head + "\r\n").getBytes(StandardCharsets.US_ASCII));
            if (!last) {
                out.write(data, off, n);
                out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
                off += n;
            }
        }
        if (trailers != null) {
            StringBuilder text = new StringBuilder();
            trailers.forEach((k, v) -> text.append(k).append(':').append(v).append('\n'));
            out.writeBytes(text.toString().replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            if (seed != null) {
                String toSign = "AWS4-HMAC-SHA256-TRAILER\n" + seed.amzDate() + "\n" + seed.scope() + "\n" + prev + "\n"
                        + HEX.formatHex(sha256().digest(text.toString().getBytes(StandardCharsets.ISO_8859_1)));
                out.writeBytes(("x-amz-trailer-signature:" + HEX.formatHex(SigV4.hmac(seed.signingKey(), toSign)) + "\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
            }
        }
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }
}
