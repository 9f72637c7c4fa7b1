package geoblocks.network.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.Bytes;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.network.CodecRegistry;
import geoblocks.network.PooledBytes;
import geoblocks.network.TailMsg;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

/** Frames.data / Frames.control against FrameDecoder and CodecRegistry, without sockets. */
class FrameCodecTest {
    private static final int MAX = 2 << 20;
    private static final int ID = 42;
    private static final NetHeader HEADER = new NetHeader(NetAddress.of("10.0.0.1", 1000),
            NetAddress.of("10.0.0.2", 2000), Transport.TCP);
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    private final CodecRegistry codecs = new CodecRegistry().register(ID, BlobMsg.CODEC);
    private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private static byte[] payload(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] a = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), a);
        return a;
    }

    /** Reads the next decoded frame: kind byte, then the message through the registry. */
    private BlobMsg readMessage() throws MalformedMessageException {
        ByteBuf frame = channel.readInbound();
        assertNotNull(frame, "a complete frame was decoded");
        try {
            assertEquals(ID, frame.readUnsignedByte(), "frame kind is the codec id");
            NetMsg m = codecs.decode(ID, frame.nioBuffer());
            return assertInstanceOf(BlobMsg.class, m);
        } finally {
            frame.release();
        }
    }

    @Test
    void data_pooledTail_isTheFramesSecondPartWithoutACopy_andTheSameBytesAsACopiedFrame() throws Exception {
        CodecRegistry tails = new CodecRegistry().register(ID, TailMsg.CODEC);
        byte[] p = payload(256 << 10, 3);
        PooledBytes data = (PooledBytes) PooledBytes.ALLOCATOR.allocate(p.length);
        data.nio().put(p);
        long address = data.buf().memoryAddress();
        ByteBuf frame = Frames.data(ALLOC, tails, new TailMsg(HEADER, 9, data), MAX);
        ByteBuf copied = Frames.data(ALLOC, tails, new TailMsg(HEADER, 9, Bytes.wrap(p)), MAX);
        try {
            CompositeByteBuf c = assertInstanceOf(CompositeByteBuf.class, frame);
            assertEquals(2, c.numComponents(), "the head, then the tail");
            assertEquals(address, c.component(1).memoryAddress(), "the tail's own memory, not a copy");
            assertArrayEquals(bytes(copied), bytes(frame), "the same frame as when the tail is copied");
            assertTrue(data.released(), "sending handed the message's reference over");
            assertEquals(1, data.buf().refCnt(), "the frame holds the memory until it is written");
        } finally {
            frame.release();
            copied.release();
        }
        assertEquals(0, data.buf().refCnt());
        // a short tail is copied into the frame, and the message's reference released at once
        PooledBytes small = (PooledBytes) PooledBytes.ALLOCATOR.allocate(100);
        ByteBuf one = Frames.data(ALLOC, tails, new TailMsg(HEADER, 10, small), MAX);
        assertFalse(one instanceof CompositeByteBuf);
        assertEquals(0, small.buf().refCnt());
        one.release();
    }

    @Test
    void data_oneMebibyteMessage_roundTripsThroughDecoder() throws Exception {
        byte[] p = payload(1 << 20, 1);
        ByteBuf frame = Frames.data(ALLOC, codecs, new BlobMsg(HEADER, p), MAX);
        int expectedLength = 1 + BlobMsg.CODEC.encodedSize(new BlobMsg(HEADER, p));
        assertEquals(expectedLength, frame.getInt(0), "length field counts kind byte and body");
        assertEquals(Frames.LENGTH_BYTES + expectedLength, frame.readableBytes());

        channel.writeInbound(frame);
        BlobMsg m = readMessage();
        assertEquals(HEADER.source(), m.getHeader().source());
        assertEquals(HEADER.destination(), m.getHeader().destination());
        assertArrayEquals(p, m.payload);
        assertNull(channel.readInbound(), "exactly one frame");
    }

    @Test
    void data_twoFramesInOneWrite_decodeSeparatelyInOrder() throws Exception {
        ByteBuf both = Unpooled.wrappedBuffer(
                Frames.data(ALLOC, codecs, new BlobMsg(HEADER, payload(10, 2)), MAX),
                Frames.data(ALLOC, codecs, new BlobMsg(HEADER, payload(20, 3)), MAX));
        channel.writeInbound(both);
        assertArrayEquals(payload(10, 2), readMessage().payload);
        assertArrayEquals(payload(20, 3), readMessage().payload);
    }

    @Test
    void decoder_frameSplitAcrossSmallWrites_reassemblesOnlyAtTheLastByte() throws Exception {
        byte[] p = payload(10_000, 4);
        ByteBuf frame = Frames.data(ALLOC, codecs, new BlobMsg(HEADER, p), MAX);
        byte[] wire = bytes(frame);
        frame.release();
        for (int off = 0; off < wire.length; off += 7) {
            int n = Math.min(7, wire.length - off);
            channel.writeInbound(Unpooled.wrappedBuffer(wire, off, n));
            if (off + n < wire.length) {
                assertNull(channel.readInbound(), "no frame before byte " + (off + n) + " of " + wire.length);
            }
        }
        assertArrayEquals(p, readMessage().payload);
    }

    @Test
    void decoder_frameSpanningReads_isGatheredInOneBufferOfExactlyItsLength() throws Exception {
        byte[] p = payload(1 << 20, 9);
        ByteBuf frame = Frames.data(ALLOC, codecs, new BlobMsg(HEADER, p), MAX);
        byte[] wire = bytes(frame);
        frame.release();
        // as a socket delivers it: 64 KiB reads, the last one carrying the start of a second frame
        ByteBuf next = Frames.data(ALLOC, codecs, new BlobMsg(HEADER, payload(100, 10)), MAX);
        byte[] second = bytes(next);
        next.release();
        byte[] stream = new byte[wire.length + second.length];
        System.arraycopy(wire, 0, stream, 0, wire.length);
        System.arraycopy(second, 0, stream, wire.length, second.length);
        for (int off = 0; off < stream.length; off += 65_536) {
            channel.writeInbound(Unpooled.wrappedBuffer(stream, off, Math.min(65_536, stream.length - off)));
        }
        ByteBuf first = channel.readInbound();
        try {
            assertEquals(wire.length - Frames.LENGTH_BYTES, first.readableBytes());
            assertEquals(first.readableBytes(), first.capacity(), "gathered at its exact length, never grown");
            assertEquals(ID, first.readUnsignedByte());
            assertArrayEquals(p, assertInstanceOf(BlobMsg.class, codecs.decode(ID, first.nioBuffer())).payload);
        } finally {
            first.release();
        }
        assertArrayEquals(payload(100, 10), readMessage().payload, "the frame after it, from the same read");
        assertNull(channel.readInbound());
    }

    @Test
    void decoder_afterAnOversizeLength_dropsEverythingElse() {
        ByteBuf header = Unpooled.buffer(4).writeInt(MAX + 1);
        assertThrows(TooLongFrameException.class, () -> channel.writeInbound(header));
        ByteBuf good = Frames.data(ALLOC, codecs, new BlobMsg(HEADER, payload(10, 11)), MAX);
        channel.writeInbound(good);
        assertNull(channel.readInbound(), "the stream is out of step: nothing after the bad length is a frame");
        assertEquals(0, good.refCnt(), "dropped bytes are released");
    }

    @Test
    void decoder_truncatedFrame_yieldsNothingUntilCompleted() throws Exception {
        ByteBuf frame = Frames.data(ALLOC, codecs, new BlobMsg(HEADER, payload(500, 5)), MAX);
        byte[] wire = bytes(frame);
        frame.release();

        channel.writeInbound(Unpooled.wrappedBuffer(wire, 0, 2));
        assertNull(channel.readInbound(), "half a length field");
        channel.writeInbound(Unpooled.wrappedBuffer(wire, 2, wire.length - 3));
        assertNull(channel.readInbound(), "one byte short");
        channel.writeInbound(Unpooled.wrappedBuffer(wire, wire.length - 1, 1));
        assertArrayEquals(payload(500, 5), readMessage().payload);
    }

    @Test
    void decoder_lengthAboveMax_failsOnTheHeaderAlone() {
        ByteBuf header = Unpooled.buffer(4).writeInt(MAX + 1);
        TooLongFrameException e = assertThrows(TooLongFrameException.class, () -> channel.writeInbound(header));
        // Netty names the frame length including the 4-byte length field
        assertTrue(e.getMessage().contains(Integer.toString(Frames.LENGTH_BYTES + MAX + 1)), e.getMessage());
        assertNull(channel.readInbound());
    }

    @Test
    void decoder_lengthNear4GiB_failsOnTheHeaderAlone() {
        ByteBuf header = Unpooled.buffer(4).writeInt(0xFFFF_FFF0);
        assertThrows(TooLongFrameException.class, () -> channel.writeInbound(header));
    }

    @Test
    void data_messageOfExactlyMaxFrame_isAcceptedByTheDecoder() throws Exception {
        // the length field (kind byte + body) equals max-frame: Frames.data allows it, so the
        // receiving decoder must too, or such a message kills the connection it travels on
        byte[] p = payload(BlobMsg.payloadFor(HEADER, MAX - 1), 6);
        ByteBuf frame = Frames.data(ALLOC, codecs, new BlobMsg(HEADER, p), MAX);
        assertEquals(MAX, frame.getInt(0));
        channel.writeInbound(frame);
        assertArrayEquals(p, readMessage().payload);
    }

    @Test
    void data_messageOneByteOverMax_isRefusedNamingBothSizes() {
        BlobMsg m = new BlobMsg(HEADER, payload(BlobMsg.payloadFor(HEADER, MAX), 7));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Frames.data(ALLOC, codecs, m, MAX));
        assertTrue(e.getMessage().contains(MAX + " bytes exceeds"), e.getMessage());
        assertTrue(e.getMessage().contains("limit of " + MAX + " bytes"), e.getMessage());
    }

    @Test
    void data_unregisteredMessageClass_isRefusedNamingTheClass() {
        NetMsg other = new NetMsg(HEADER) {
            @Override
            public int wireSize() {
                return 0;
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Frames.data(ALLOC, codecs, other, MAX));
        assertTrue(e.getMessage().contains("no codec registered"), e.getMessage());
    }

    @Test
    void control_frameRoundTripsAsKindZero() throws Exception {
        byte[] mac = payload(32, 8);
        channel.writeInbound(Frames.control(ALLOC, new Control.Proof(mac)));
        ByteBuf frame = channel.readInbound();
        try {
            assertEquals(Frames.CONTROL, frame.readUnsignedByte());
            Control.Proof p = assertInstanceOf(Control.Proof.class, Control.read(frame.nioBuffer()));
            assertArrayEquals(mac, p.mac());
        } finally {
            frame.release();
        }
    }

    @Test
    void registryDecode_unknownId_namesTheId() {
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> codecs.decode(7, ByteBuffer.allocate(10)));
        assertTrue(e.getMessage().contains("unknown codec id 7"), e.getMessage());
    }

    @Test
    void registryDecode_idZeroIsNotACodec() {
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> codecs.decode(0, ByteBuffer.allocate(10)));
        assertTrue(e.getMessage().contains("unknown codec id 0"), e.getMessage());
    }

    @Test
    void registryDecode_trailingBytes_namesTheCount() {
        BlobMsg m = new BlobMsg(HEADER, payload(16, 9));
        int size = codecs.encodedSize(ID, m);
        ByteBuffer b = ByteBuffer.allocate(size + 5);
        codecs.encode(ID, m, b);
        b.flip().limit(size + 5);
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> codecs.decode(ID, b));
        assertTrue(e.getMessage().contains("5 bytes after the message"), e.getMessage());
    }

    @Test
    void registryDecode_truncatedMessage_isMalformedNotARuntimeException() {
        BlobMsg m = new BlobMsg(HEADER, payload(16, 10));
        ByteBuffer b = ByteBuffer.allocate(codecs.encodedSize(ID, m));
        codecs.encode(ID, m, b);
        b.flip().limit(b.limit() - 1);
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> codecs.decode(ID, b));
        assertTrue(e.getMessage().contains("truncated payload"), e.getMessage());
    }

    @Test
    void register_reservedOrTakenIds_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CodecRegistry().register(0, BlobMsg.CODEC));
        assertThrows(IllegalArgumentException.class, () -> new CodecRegistry().register(256, BlobMsg.CODEC));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> codecs.register(43, BlobMsg.CODEC));
        assertTrue(e.getMessage().contains("already has codec id " + ID), e.getMessage());
        assertEquals(ID, codecs.idOf(new BlobMsg(HEADER, new byte[0])));
    }

    /** The frame layout, byte for byte: length (u32: kind and body), kind 0 (control), then the control body (RETIRE, type 3). */
    @Test
    void controlFrame_goldenBytes() {
        ByteBuf f = Frames.control(ALLOC, new Control.Retire());
        try {
            assertEquals("00000002" + "00" + "03", HexFormat.of().formatHex(bytes(f)));
        } finally {
            f.release();
        }
    }
}
