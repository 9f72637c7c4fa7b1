package geoblocks.net.netty;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.MessageAuth;
import geoblocks.net.NetMsg;
import geoblocks.net.WireCodec;
import geoblocks.net.WireStats;
import io.netty.buffer.ByteBuf;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.CorruptedFrameException;
import java.nio.ByteBuffer;
import java.util.Optional;
import se.sics.kompics.network.netty.serialization.DatagramSerializer;
import se.sics.kompics.network.netty.serialization.Serializers;

/**
 * Adapts a Netty-free {@link WireCodec} to Kompics' Netty serializer registry, for TCP and UDP.
 * With {@link #authenticate} every message carries a {@link MessageAuth} tag after its bytes,
 * checked before anything is decoded:
 *
 * <pre>
 * +-------------------------------+----------------------+
 * | codec bytes (header, body)    | HMAC tag (16 bytes)  |   (tag only when authentication is on)
 * +-------------------------------+----------------------+
 * </pre>
 *
 * Undecodable or unauthenticated input is counted ({@link WireStats}) and rejected with a
 * {@link CorruptedFrameException} that carries the reason; it is never returned as null and never
 * deserialized with Java serialization ({@link #blockJavaSerialization}).
 */
public final class CodecSerializer<M extends NetMsg> implements DatagramSerializer {
    private static volatile MessageAuth auth;

    private final WireCodec<M> codec;
    private final int id;

    public CodecSerializer(WireCodec<M> codec, int id) {
        if (id < 16 || id > 255) {
            throw new IllegalArgumentException("serializer id must be in 16..255 (0-6 are Kompics'), was " + id);
        }
        this.codec = codec;
        this.id = id;
    }

    /** Registers {@code codec} under {@code name} with the JVM-global registry. Idempotent per name. */
    public static <M extends NetMsg> void register(WireCodec<M> codec, int id, String name) {
        Serializers.register(new CodecSerializer<>(codec, id), name);
        Serializers.register(codec.messageClass(), name);
    }

    /** From now on every message is tagged and every received message must carry a valid tag. */
    public static void authenticate(MessageAuth messageAuth) {
        auth = messageAuth;
    }

    /**
     * Replaces Kompics' built-in Java serializer (id 3, which would deserialize whatever a peer
     * sends: a remote code execution risk) and the protobuf one (id 4) with serializers that refuse,
     * and binds a refusing serializer to every id still free, so that input naming an unknown
     * serializer is counted as malformed. Call before registering codecs (they replace their ids).
     */
    public static void blockJavaSerialization() {
        Serializers.register(new Refusing(3), "javaS");
        Serializers.register(new Refusing(4), "protobufS");
        for (int id = 7; id < 256; id++) {
            if (Serializers.getSerializer(id) == null) {
                Serializers.register(new Refusing(id), "geoblocks-refuse-" + id);
            }
        }
    }

    /** Messages rejected by any codec since the JVM started (malformed or unauthenticated). */
    public static long rejected() {
        return WireStats.malformedCount() + WireStats.unauthenticatedCount();
    }

    @Override
    public int identifier() {
        return id;
    }

    @Override
    public void toBinary(Object o, ByteBuf buf) {
        M msg = codec.messageClass().cast(o);
        int size = codec.encodedSize(msg);
        buf.ensureWritable(size);
        ByteBuffer out = buf.nioBuffer(buf.writerIndex(), size);
        codec.encode(msg, out);
        if (out.position() != size) {
            throw new IllegalStateException(codec.getClass().getSimpleName() + " wrote " + out.position()
                    + " bytes but announced " + size);
        }
        MessageAuth a = auth;
        if (a != null) {
            byte[] tag = a.tag(buf.nioBuffer(buf.writerIndex(), size));
            buf.writerIndex(buf.writerIndex() + size);
            buf.writeBytes(tag);
        } else {
            buf.writerIndex(buf.writerIndex() + size);
        }
    }

    @Override
    public Object fromBinary(ByteBuf buf, Optional<Object> hint) {
        MessageAuth a = auth;
        int length = buf.readableBytes();
        if (a != null) {
            if (length < MessageAuth.TAG_BYTES) {
                return reject(buf, true, "message of " + length + " bytes has no authentication tag");
            }
            length -= MessageAuth.TAG_BYTES;
            byte[] tag = new byte[MessageAuth.TAG_BYTES];
            buf.getBytes(buf.readerIndex() + length, tag);
            if (!a.verify(buf.nioBuffer(buf.readerIndex(), length), tag)) {
                return reject(buf, true, "bad authentication tag: sender does not know the cluster secret");
            }
        }
        ByteBuffer in = buf.nioBuffer(buf.readerIndex(), length);
        try {
            M msg = codec.decode(in);
            if (a != null && in.hasRemaining()) {
                throw new MalformedMessageException(in.remaining() + " bytes after the message");
            }
            buf.skipBytes(buf.readableBytes());
            return msg;
        } catch (MalformedMessageException | RuntimeException e) {
            return reject(buf, false, e.getMessage());
        }
    }

    private Object reject(ByteBuf buf, boolean unauthenticated, String why) {
        if (unauthenticated) {
            WireStats.unauthenticated();
        } else {
            WireStats.malformed();
        }
        buf.skipBytes(buf.readableBytes());
        throw new CorruptedFrameException(codec.messageClass().getSimpleName() + ": " + why);
    }

    /** Stands in for a built-in serializer that must never run on network input. */
    private static final class Refusing implements DatagramSerializer {
        private final int id;

        Refusing(int id) {
            this.id = id;
        }

        @Override
        public int identifier() {
            return id;
        }

        @Override
        public void toBinary(Object o, ByteBuf buf) {
            throw new IllegalArgumentException("refusing to serialize " + o.getClass().getName()
                    + " with built-in serializer " + id + ": register a codec for it");
        }

        @Override
        public Object fromBinary(ByteBuf buf, Optional<Object> hint) {
            WireStats.malformed();
            buf.skipBytes(buf.readableBytes());
            throw new CorruptedFrameException("refused a message for serializer id " + id
                    + " (unknown, or Java/protobuf deserialization, which is disabled)");
        }

        @Override
        public Object fromBinary(ByteBuf buf, DatagramPacket datagram) {
            return fromBinary(buf, Optional.empty());
        }
    }

    @Override
    public Object fromBinary(ByteBuf buf, DatagramPacket datagram) {
        return fromBinary(buf, Optional.empty());
    }
}
