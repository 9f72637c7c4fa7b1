package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOps;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.Wire;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

/**
 * A newer peer's request, with an op tag this build does not know, read at file protocol 4: the node
 * answers it UNSUPPORTED (with the request's id, so the sender stops waiting) instead of dropping it,
 * and a peer that speaks only 3 gets INVALID, the nearest code it knows.
 */
class UnknownOpTest {
    private static final NetHeader H = new NetHeader(NetAddress.of("10.0.0.1", 1), NetAddress.of("10.0.0.2", 2), Transport.TCP);

    @Test
    void anUnknownRequest_isAnsweredUnsupported_withItsReq() throws Exception {
        ByteBuffer b = ByteBuffer.allocate(Wire.headerSize(H) + 2 + 8 + 12);
        Wire.writeHeader(H, b);
        b.put((byte) (0x80 + 4)).put((byte) 200).putLong(42).putInt(7).putLong(8); // a tag and fields from a newer build
        b.flip();
        FileMsg in = FileCodec.INSTANCE.decode(b);
        FileOp.Unknown u = (FileOp.Unknown) in.op();
        assertTrue(FileOps.handled().contains(FileOp.Unknown.class), "every node must have a handler for it");

        FileOp.Failed answer = RequestRoutes.unsupported(u);
        assertEquals(42, answer.req());
        assertEquals(FailureCode.UNSUPPORTED, answer.code());
        assertTrue(answer.error().contains("op tag 200") && answer.error().contains("file protocol " + FileCodec.RANGE),
                answer.error());

        FileMsg at4 = new FileMsg(H, answer, 4);
        ByteBuffer out = ByteBuffer.allocate(FileCodec.INSTANCE.encodedSize(at4));
        FileCodec.INSTANCE.encode(at4, out);
        out.flip();
        assertEquals(answer, FileCodec.INSTANCE.decode(out).op());

        FileMsg at3 = new FileMsg(H, answer, 3);
        ByteBuffer old = ByteBuffer.allocate(FileCodec.INSTANCE.encodedSize(at3));
        FileCodec.INSTANCE.encode(at3, old);
        old.flip();
        assertEquals(FailureCode.INVALID, ((FileOp.Failed) FileCodec.INSTANCE.decode(old).op()).code());
    }
}
