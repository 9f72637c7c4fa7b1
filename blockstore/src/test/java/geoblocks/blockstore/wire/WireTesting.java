package geoblocks.blockstore.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import geoblocks.net.Bytes;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.WireCodec;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.util.Arrays;
import se.sics.kompics.network.Transport;

/** Shared helpers for codec tests: headers, encoding to exact-size buffers, field-wise equality. */
final class WireTesting {
    private WireTesting() {}

    static final NetHeader V4 = new NetHeader(NetAddress.of("127.0.0.1", 45678), NetAddress.of("10.1.2.3", 1),
            Transport.TCP);
    static final NetHeader V6 = new NetHeader(NetAddress.of("::1", 65535), NetAddress.of("fe80::1", 0),
            Transport.UDP);

    /** Encodes into a buffer of exactly {@code encodedSize} bytes and checks every byte was written. */
    static <M extends NetMsg> byte[] encode(WireCodec<M> codec, M msg) {
        int size = codec.encodedSize(msg);
        ByteBuffer exact = ByteBuffer.allocate(size);
        codec.encode(msg, exact);
        assertFalse(exact.hasRemaining(), "encode wrote " + exact.position() + " of encodedSize " + size);
        ByteBuffer roomy = ByteBuffer.allocate(size + 16);
        codec.encode(msg, roomy);
        assertEquals(size, roomy.position(), "bytes written != encodedSize");
        return exact.array();
    }

    /** Decodes bytes {@code 0..len} of {@code data} (no copy). */
    static <M extends NetMsg> M decode(WireCodec<M> codec, byte[] data, int len) throws MalformedMessageException {
        return codec.decode(ByteBuffer.wrap(data, 0, len));
    }

    /** Decodes, accepting a message or a MalformedMessageException; anything else fails the test. */
    static <M extends NetMsg> void decodeOrMalformed(WireCodec<M> codec, byte[] data) {
        try {
            codec.decode(ByteBuffer.wrap(data));
        } catch (MalformedMessageException expected) {
            // rejected, as it should be
        }
    }

    /** Record equality that compares byte arrays by content. */
    static void assertRecordEquals(Record expected, Record actual) {
        assertEquals(expected.getClass(), actual.getClass());
        for (RecordComponent c : expected.getClass().getRecordComponents()) {
            try {
                Object e = c.getAccessor().invoke(expected);
                Object a = c.getAccessor().invoke(actual);
                if (e instanceof Bytes eb) {
                    assertEquals(true, Arrays.equals(eb.toArray(), ((Bytes) a).toArray()),
                            expected.getClass().getSimpleName() + "." + c.getName() + " differs");
                } else if (e instanceof byte[] eb) {
                    assertEquals(true, Arrays.equals(eb, (byte[]) a),
                            expected.getClass().getSimpleName() + "." + c.getName() + " differs");
                } else {
                    assertEquals(e, a, expected.getClass().getSimpleName() + "." + c.getName());
                }
            } catch (ReflectiveOperationException ex) {
                throw new AssertionError(ex);
            }
        }
    }
}
