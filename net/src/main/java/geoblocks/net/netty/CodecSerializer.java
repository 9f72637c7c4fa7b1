package geoblocks.net.netty;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetMsg;
import geoblocks.net.WireCodec;
import io.netty.buffer.ByteBuf;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.CorruptedFrameException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import se.sics.kompics.network.netty.serialization.DatagramSerializer;
import se.sics.kompics.network.netty.serialization.Serializers;

/**
 * Adapts a Netty-free {@link WireCodec} to Kompics' Netty serializer registry, for TCP and UDP.
 * Undecodable input is counted and rejected with a {@link CorruptedFrameException} that carries the
 * codec's reason; it is never returned as null and never deserialized with Java serialization.
 */
public final class CodecSerializer<M extends NetMsg> implements DatagramSerializer {
    private static final AtomicLong REJECTED = new AtomicLong();

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

    /** Messages rejected by any codec since the JVM started. */
    public static long rejected() {
        return REJECTED.get();
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
        buf.writerIndex(buf.writerIndex() + size);
    }

    @Override
    public Object fromBinary(ByteBuf buf, Optional<Object> hint) {
        ByteBuffer in = buf.nioBuffer(buf.readerIndex(), buf.readableBytes());
        try {
            M msg = codec.decode(in);
            buf.skipBytes(in.position());
            return msg;
        } catch (MalformedMessageException | RuntimeException e) {
            REJECTED.incrementAndGet();
            buf.skipBytes(buf.readableBytes());
            throw new CorruptedFrameException(codec.messageClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Object fromBinary(ByteBuf buf, DatagramPacket datagram) {
        return fromBinary(buf, Optional.empty());
    }
}
