package geoblocks.network;

import geoblocks.net.Bytes;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetMsg;
import geoblocks.net.VersionRange;
import geoblocks.net.WireCodec;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The message families one network instance carries: each {@link WireCodec} under a one-byte id
 * (1..255; 0 is the transport's own control frames). Built once before the network starts and
 * read-only afterwards, so lookups need no locking. Unlike Kompics' serializer registry it is not
 * JVM-global: two networks in one JVM may carry different families.
 */
public final class CodecRegistry {
    private final WireCodec<?>[] byId = new WireCodec<?>[256];
    private final boolean[] bursting = new boolean[256];
    private final VersionRange[] pinned = new VersionRange[256];
    private final Map<Class<?>, Integer> idByClass = new HashMap<>();
    private final Map<Class<?>, Integer> resolved = new ConcurrentHashMap<>();

    /** Adds {@code codec} under {@code id}; ids and message classes must be unique. */
    public CodecRegistry register(int id, WireCodec<?> codec) {
        if (id < 1 || id > 255) {
            throw new IllegalArgumentException("codec id must be in 1..255 (0 is reserved for control frames), was " + id);
        }
        if (byId[id] != null) {
            throw new IllegalArgumentException("codec id " + id + " is already taken by "
                    + byId[id].getClass().getSimpleName());
        }
        if (idByClass.containsKey(codec.messageClass())) {
            throw new IllegalArgumentException(codec.messageClass().getName() + " already has codec id "
                    + idByClass.get(codec.messageClass()));
        }
        byId[id] = codec;
        idByClass.put(codec.messageClass(), id);
        return this;
    }

    /**
     * As {@link #register}, and datagrams of this family that one read of the UDP socket receives
     * from one peer may be delivered together as one {@link geoblocks.net.NetBurst}. Only for a
     * family whose receivers all handle NetBurst on the Network port (LEDBAT's component does);
     * a receiver that does not would never see those datagrams.
     */
    public CodecRegistry registerBursting(int id, WireCodec<?> codec) {
        register(id, codec);
        bursting[id] = true;
        return this;
    }

    /**
     * Offers family {@code id}'s versions only up to {@code highest}: this network plays a build
     * that knows no later one (an upgrade test's "previous release"). IllegalArgumentException when
     * the family has no such version.
     */
    public CodecRegistry speakAtMost(int id, int highest) {
        if (byId[id] == null || byId[id].versions() == null) {
            throw new IllegalArgumentException("no versioned codec under id " + id);
        }
        pinned[id] = byId[id].versions().atMost(highest);
        return this;
    }

    /** The versions this network offers of each versioned family, by codec id (see Handshake). */
    public SortedMap<Integer, VersionRange> offered() {
        SortedMap<Integer, VersionRange> m = new TreeMap<>();
        for (int id = 1; id < 256; id++) {
            VersionRange r = versions(id);
            if (r != null) {
                m.put(id, r);
            }
        }
        return m;
    }

    /** The versions this network speaks of family {@code id} (pinned or the codec's own), or null. */
    public VersionRange versions(int id) {
        return pinned[id] != null ? pinned[id] : byId[id] == null ? null : byId[id].versions();
    }

    /** Family {@code id}'s name for people: its codec's class name. */
    public String name(int id) {
        return byId[id] == null ? "protocol " + id : byId[id].getClass().getSimpleName() + " (codec " + id + ")";
    }

    /** Whether family {@code id} was registered with {@link #registerBursting}. */
    public boolean bursting(int id) {
        return id >= 0 && id < 256 && bursting[id];
    }

    /**
     * The id of {@code msg}'s family: the codec of its class or of the nearest superclass (a family
     * such as LEDBAT's has one codec for several packet classes); IllegalArgumentException if none.
     */
    public int idOf(NetMsg msg) {
        Integer id = resolved.get(msg.getClass());
        if (id == null) {
            for (Class<?> c = msg.getClass(); c != null && id == null; c = c.getSuperclass()) {
                id = idByClass.get(c);
            }
            if (id == null) {
                throw new IllegalArgumentException("no codec registered for " + msg.getClass().getName());
            }
            resolved.put(msg.getClass(), id);
        }
        return id;
    }

    /** Encoded size of {@code msg} (without the id byte). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int encodedSize(int id, NetMsg msg) {
        return ((WireCodec) byId[id]).encodedSize(msg);
    }

    /** Writes {@code msg} at {@code out}'s position; exactly {@link #encodedSize} bytes. */
    public void encode(int id, NetMsg msg, ByteBuffer out) {
        encode(id, msg, encodedSize(id, msg), out);
    }

    /** As {@link #encode(int, NetMsg, ByteBuffer)} when the caller already has {@code size} = {@link #encodedSize}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void encode(int id, NetMsg msg, int size, ByteBuffer out) {
        WireCodec c = byId[id];
        int start = out.position();
        c.encode(msg, out);
        if (out.position() - start != size) {
            throw new IllegalStateException(c.getClass().getSimpleName() + " wrote " + (out.position() - start)
                    + " bytes but announced " + size);
        }
    }

    /** The bytes that end {@code msg}'s encoding, to send without copying them, or null ({@link WireCodec#tail}). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Bytes tail(int id, NetMsg msg) {
        return ((WireCodec) byId[id]).tail(msg);
    }

    /** Writes {@code msg} without its tail: exactly {@code size} (its encoded size) less the tail's length. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void encodeHead(int id, NetMsg msg, int size, Bytes tail, ByteBuffer out) {
        WireCodec c = byId[id];
        int start = out.position();
        c.encodeHead(msg, out);
        if (out.position() - start != size - tail.length()) {
            throw new IllegalStateException(c.getClass().getSimpleName() + " wrote a head of " + (out.position() - start)
                    + " bytes but announced " + size + " with a tail of " + tail.length());
        }
    }

    /** Releases the bytes {@code msg} (of family {@code id}) carries as its tail, if any (a message sent nowhere, dropped or refused). */
    public void release(int id, NetMsg msg) {
        Bytes t = tail(id, msg);
        if (t != null) {
            t.release();
        }
    }

    /** Decodes one message of family {@code id}; the whole of {@code in} must be that message. */
    public NetMsg decode(int id, ByteBuffer in) throws MalformedMessageException {
        return decode(id, in, null);
    }

    /**
     * As {@link #decode(int, ByteBuffer)}; the message may keep bytes of {@code in} through {@code keeper}
     * (null: copies). When decoding fails, the caller releases whatever the keeper made.
     */
    public NetMsg decode(int id, ByteBuffer in, WireCodec.Keeper keeper) throws MalformedMessageException {
        WireCodec<?> c = id >= 0 && id < 256 ? byId[id] : null;
        if (c == null) {
            throw new MalformedMessageException("unknown codec id " + id);
        }
        NetMsg msg;
        try {
            msg = keeper == null ? c.decode(in) : c.decode(in, keeper);
        } catch (RuntimeException e) {
            throw new MalformedMessageException(c.messageClass().getSimpleName() + ": " + e);
        }
        if (in.hasRemaining()) {
            throw new MalformedMessageException(c.messageClass().getSimpleName() + ": " + in.remaining()
                    + " bytes after the message");
        }
        return msg;
    }
}
