package geoblocks.node.s3.post;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * A streaming multipart/form-data reader (RFC 7578) for POST object: fed the body as it arrives, it
 * hands small fields whole to its {@link Listener} and the {@code file} part's bytes as they come,
 * holding back only what could be the start of the next boundary. Fields after the file are ignored,
 * as S3 does. Pure; malformed input is an {@link IllegalArgumentException}.
 */
public final class FormData {
    /** Receives the parts. */
    interface Listener {
        void field(String name, String value);

        /** The file part begins ({@code filename} may be null). */
        void fileStart(String filename, String contentType) throws Exception;

        void fileBytes(ByteBuffer bytes) throws Exception;

        void fileEnd() throws Exception;
    }

    static final int MAX_HEADERS = 8 << 10;
    private enum State { PREAMBLE, HEADERS, FIELD, FILE, AFTER_DELIMITER, DONE }

    private final byte[] first; // "--boundary"
    private final byte[] delimiter; // "\r\n--boundary"
    private final int maxField;
    private final int maxFields;
    private final Listener listener;
    private byte[] buf = new byte[4096];
    private int len;
    private State state = State.PREAMBLE;
    private String partName;
    private int fields;
    private boolean fileSeen;

    public FormData(String boundary, int maxField, int maxFields, Listener listener) {
        if (boundary == null || boundary.isEmpty() || boundary.length() > 70) {
            throw new IllegalArgumentException("the multipart boundary must have 1 to 70 characters");
        }
        this.first = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        this.maxField = maxField;
        this.maxFields = maxFields;
        this.listener = listener;
    }

    /** The boundary parameter of a multipart/form-data Content-Type, or null when it is not one. */
    public static String boundary(String contentType) {
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            return null;
        }
        for (String p : contentType.split(";")) {
            String t = p.trim();
            if (t.toLowerCase(Locale.ROOT).startsWith("boundary=")) {
                String b = t.substring(9);
                if (b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"")) {
                    b = b.substring(1, b.length() - 1);
                }
                return b;
            }
        }
        return null;
    }

    boolean done() {
        return state == State.DONE;
    }

    boolean fileSeen() {
        return fileSeen;
    }

    void feed(ByteBuffer in) throws Exception {
        while (in.hasRemaining()) {
            if (state == State.DONE) {
                return; // the epilogue and any fields after the file are ignored
            }
            int n = Math.min(in.remaining(), 64 << 10);
            ensure(len + n);
            in.get(buf, len, n);
            len += n;
            process();
        }
    }

    /** The body ended: it must have closed its last part (or the file part). */
    void finish() throws Exception {
        if (state != State.DONE) {
            throw new IllegalArgumentException("the multipart body ended before its closing boundary");
        }
    }

    private void ensure(int cap) {
        if (cap > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(cap, buf.length * 2));
        }
    }

    private void consume(int n) {
        System.arraycopy(buf, n, buf, 0, len - n);
        len -= n;
    }

    private int indexOf(byte[] pat, int from) {
        outer:
        for (int i = from; i <= len - pat.length; i++) {
            for (int j = 0; j < pat.length; j++) {
                if (buf[i + j] != pat[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private void process() throws Exception {
        while (true) {
            switch (state) {
                case PREAMBLE -> {
                    int i = indexOf(first, 0);
                    if (i < 0) {
                        if (len > MAX_HEADERS) {
                            throw new IllegalArgumentException("no multipart boundary in the first " + MAX_HEADERS + " bytes");
                        }
                        return;
                    }
                    consume(i + first.length);
                    state = State.AFTER_DELIMITER;
                }
                case AFTER_DELIMITER -> {
                    if (len < 2) {
                        return;
                    }
                    if (buf[0] == '-' && buf[1] == '-') {
                        state = State.DONE;
                        len = 0;
                        return;
                    }
                    int eol = indexOf(new byte[] {'\r', '\n'}, 0);
                    if (eol < 0) {
                        if (len > 256) {
                            throw new IllegalArgumentException("garbage after a multipart boundary");
                        }
                        return;
                    }
                    consume(eol + 2); // transport padding, then CRLF
                    state = State.HEADERS;
                }
                case HEADERS -> {
                    int end = indexOf(new byte[] {'\r', '\n', '\r', '\n'}, 0);
                    if (end < 0 && !(len >= 2 && buf[0] == '\r' && buf[1] == '\n')) {
                        if (len > MAX_HEADERS) {
                            throw new IllegalArgumentException("a part's headers exceed " + MAX_HEADERS + " bytes");
                        }
                        return;
                    }
                    int headerEnd = end < 0 || (buf[0] == '\r' && buf[1] == '\n') ? 0 : end;
                    String head = new String(buf, 0, headerEnd, StandardCharsets.UTF_8);
                    consume(headerEnd == 0 ? 2 : end + 4);
                    startPart(head);
                }
                case FIELD, FILE -> {
                    int i = indexOf(delimiter, 0);
                    if (i < 0) {
                        int keep = delimiter.length - 1;
                        if (state == State.FILE && len > keep) {
                            listener.fileBytes(ByteBuffer.wrap(buf, 0, len - keep).asReadOnlyBuffer());
                            consume(len - keep);
                        } else if (state == State.FIELD && len > maxField + keep) {
                            throw new IllegalArgumentException("the form field '" + partName + "' exceeds " + maxField + " bytes");
                        }
                        return;
                    }
                    if (state == State.FILE) {
                        if (i > 0) {
                            listener.fileBytes(ByteBuffer.wrap(buf, 0, i).asReadOnlyBuffer());
                        }
                        consume(i + delimiter.length);
                        listener.fileEnd();
                        state = State.DONE; // fields after the file are ignored
                        len = 0;
                        return;
                    }
                    if (i > maxField) {
                        throw new IllegalArgumentException("the form field '" + partName + "' exceeds " + maxField + " bytes");
                    }
                    listener.field(partName, new String(buf, 0, i, StandardCharsets.UTF_8));
                    consume(i + delimiter.length);
                    state = State.AFTER_DELIMITER;
                }
                case DONE -> {
                    return;
                }
                default -> throw new IllegalStateException();
            }
        }
    }

    private void startPart(String head) throws Exception {
        String name = null;
        String filename = null;
        String type = null;
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String h = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String v = line.substring(colon + 1).trim();
            if (h.equals("content-disposition")) {
                name = param(v, "name");
                filename = param(v, "filename");
            } else if (h.equals("content-type")) {
                type = v;
            }
        }
        if (name == null) {
            throw new IllegalArgumentException("a form part has no Content-Disposition name");
        }
        partName = name;
        if (name.equalsIgnoreCase("file")) {
            fileSeen = true;
            state = State.FILE;
            listener.fileStart(filename, type);
        } else {
            if (++fields > maxFields) {
                throw new IllegalArgumentException("the form has more than " + maxFields + " fields");
            }
            state = State.FIELD;
        }
    }

    /** A parameter of a Content-Disposition value (quoted or not), or null. */
    static String param(String value, String name) {
        for (String p : value.split(";")) {
            String t = p.trim();
            int eq = t.indexOf('=');
            if (eq > 0 && t.substring(0, eq).trim().equalsIgnoreCase(name)) {
                String v = t.substring(eq + 1).trim();
                if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                    v = v.substring(1, v.length() - 1).replace("\\\"", "\"");
                }
                return v;
            }
        }
        return null;
    }
}
