package geoblocks.blockstore.wire;

import geoblocks.blockstore.core.WriteCondition;
import geoblocks.net.Bytes;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.Wire;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The field encodings the file protocol's families share: i8/i32/i64 big-endian, booleans as one
 * byte, strings as u16 length + UTF-8, byte arrays as i32 length + bytes, lists as u16 count +
 * elements, and the composite metadata and write-condition fields. Writing goes through {@link Out},
 * so one encoder both counts sizes ({@link Counter}) and writes bytes ({@link Writer}); reading
 * ({@link In}) bounds every length and throws {@link MalformedMessageException} naming the value.
 */
final class Fields {
    private Fields() {}

    /** Where an op's fields go: a byte buffer or a byte counter. */
    interface Out {
        void i32(int v);
        void i64(long v);
        void u16(int v);
        void u8(int v);
        void bool(boolean v);
        void str(String s);
        void bytes(byte[] b);
        /** Bytes encoded as {@link #bytes} are, and the last field of the op: a transport may send them as they are. */
        void tail(Bytes b);
    }

    /** Counts the bytes an op's fields take. */
    static final class Counter implements Out {
        int n;
        public void i32(int v) { n += 4; }
        public void i64(long v) { n += 8; }
        public void u16(int v) { n += 2; }
        public void u8(int v) { n += 1; }
        public void bool(boolean v) { n += 1; }
        public void str(String s) { n += Wire.stringSize(s); }
        public void bytes(byte[] b) { n += 4 + b.length; }
        public void tail(Bytes b) { n += 4 + b.length(); }
    }

    /** Writes an op's fields into a buffer. */
    static class Writer implements Out {
        private final ByteBuffer b;
        Writer(ByteBuffer b) { this.b = b; }
        public void i32(int v) { b.putInt(v); }
        public void i64(long v) { b.putLong(v); }
        public void u16(int v) { b.putShort((short) v); }
        public void u8(int v) { b.put((byte) v); }
        public void bool(boolean v) { b.put((byte) (v ? 1 : 0)); }
        public void str(String s) { Wire.writeString(s, b); }
        public void bytes(byte[] d) { Wire.writeBytes(d, b); }
        public void tail(Bytes d) { b.putInt(d.length()).put(d.nio()); }
    }

    /** Writes an op's fields but the bytes of its {@link Out#tail} (their length is written). */
    static final class HeadWriter extends Writer {
        HeadWriter(ByteBuffer b) { super(b); }
        @Override public void tail(Bytes d) { i32(d.length()); }
    }

    /** Reads an op's fields, bounding strings, data and lists ({@link FileCodec}'s limits). */
    static final class In {
        private final ByteBuffer b;
        private final WireCodec.Keeper keeper;
        In(ByteBuffer b) { this(b, null); }
        /** {@code keeper}: makes the {@link #tail()} bytes views of the input; null copies them. */
        In(ByteBuffer b, WireCodec.Keeper keeper) { this.b = b; this.keeper = keeper; }
        int i32() throws MalformedMessageException { return Wire.readInt(b, "i32 field"); }
        long i64() throws MalformedMessageException { return Wire.readLong(b, "i64 field"); }
        int u8() throws MalformedMessageException { return Wire.readU8(b, "u8 field"); }
        boolean bool() throws MalformedMessageException {
            int v = Wire.readU8(b, "boolean field");
            if (v > 1) {
                throw new MalformedMessageException("boolean field must be 0 or 1, was " + v);
            }
            return v == 1;
        }
        String str() throws MalformedMessageException { return Wire.readString(b, FileCodec.MAX_STRING, "string field"); }
        FailureCode failureCode() throws MalformedMessageException {
            int v = Wire.readU8(b, "failure code");
            try {
                return FailureCode.ofWire(v);
            } catch (IllegalArgumentException e) {
                throw new MalformedMessageException(e.getMessage());
            }
        }
        byte[] bytes() throws MalformedMessageException { return Wire.readBytes(b, FileCodec.MAX_DATA, "data"); }
        /** Bytes written by {@link Out#tail}: kept where they are when a keeper was given, else copied. */
        Bytes tail() throws MalformedMessageException {
            if (keeper == null) {
                return Bytes.wrap(bytes());
            }
            int len = Wire.readInt(b, "data length");
            if (len < 0 || len > FileCodec.MAX_DATA) {
                throw new MalformedMessageException("data length " + len + " outside 0.." + FileCodec.MAX_DATA);
            }
            Wire.need(b, len, "data");
            Bytes kept = keeper.keep(b.position(), len);
            b.position(b.position() + len);
            return kept;
        }
        /** Bytes are left: an optional trailing field follows (one an older writer did not append, or left out when empty). */
        boolean more() { return b.hasRemaining(); }
        int count() throws MalformedMessageException {
            Wire.need(b, 2, "list count");
            int n = Short.toUnsignedInt(b.getShort());
            if (n > FileCodec.MAX_LIST) {
                throw new MalformedMessageException("list of " + n + " entries exceeds " + FileCodec.MAX_LIST);
            }
            return n;
        }
    }

    /** A version's metadata: u16 count, then key and value strings (keys ascending). */
    static void meta(Out o, Map<String, String> meta) {
        o.u16(meta.size());
        new TreeMap<>(meta).forEach((k, v) -> {
            o.str(k);
            o.str(v);
        });
    }

    static Map<String, String> meta(In r) throws MalformedMessageException {
        int n = r.count();
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            String k = r.str();
            if (out.put(k, r.str()) != null) {
                throw new MalformedMessageException("metadata key '" + k + "' appears twice");
            }
        }
        return out;
    }

    /**
     * A write condition: u8 flags (1: If-Match follows, 2: If-None-Match follows), the metadata
     * field, then each list present.
     * <pre>
     * +-------+-----------+-----------------+----------------------+
     * | flags | str field | [str If-Match]  | [str If-None-Match]  |
     * +-------+-----------+-----------------+----------------------+
     * </pre>
     */
    static void cond(Out o, WriteCondition c) {
        o.u8((c.ifMatch() != null ? 1 : 0) | (c.ifNoneMatch() != null ? 2 : 0));
        o.str(c.field());
        if (c.ifMatch() != null) {
            o.str(c.ifMatch());
        }
        if (c.ifNoneMatch() != null) {
            o.str(c.ifNoneMatch());
        }
    }

    static WriteCondition cond(In r) throws MalformedMessageException {
        int flags = r.u8();
        if ((flags & ~3) != 0) {
            throw new MalformedMessageException("unknown write condition flags " + flags);
        }
        String field = r.str();
        String ifMatch = (flags & 1) != 0 ? r.str() : null;
        String ifNoneMatch = (flags & 2) != 0 ? r.str() : null;
        try {
            return new WriteCondition(field, ifMatch, ifNoneMatch);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException("bad write condition: " + e.getMessage());
        }
    }

    /** Reads one list element. */
    @FunctionalInterface
    interface ReadOne<T> {
        T read(In r) throws MalformedMessageException;
    }

    /** A list: u16 count, then each element as {@code one} writes it. */
    static <T> void list(Out o, List<T> list, BiConsumer<Out, T> one) {
        o.u16(list.size());
        for (T v : list) {
            one.accept(o, v);
        }
    }

    static <T> List<T> list(In r, ReadOne<T> one) throws MalformedMessageException {
        int n = r.count();
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(one.read(r));
        }
        return List.copyOf(out);
    }

    static void strings(Out o, List<String> list) {
        list(o, list, Out::str);
    }

    static List<String> strings(In r) throws MalformedMessageException {
        return list(r, In::str);
    }

    static void longs(Out o, List<Long> list) {
        list(o, list, Out::i64);
    }

    static List<Long> longs(In r) throws MalformedMessageException {
        return list(r, In::i64);
    }
}
