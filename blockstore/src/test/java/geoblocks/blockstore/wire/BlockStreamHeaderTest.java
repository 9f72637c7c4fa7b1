package geoblocks.blockstore.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.MalformedMessageException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BlockStreamHeaderTest {
    private static final BlockStreamHeader H = new BlockStreamHeader(42, "f00d-7", 1 << 20, 0xCAFEBABE);

    @Test
    void roundTrip_sizeFromPrefix_thenDecode_equalsOriginal() throws MalformedMessageException {
        for (BlockStreamHeader h : new BlockStreamHeader[] {H, new BlockStreamHeader(Long.MIN_VALUE, "x", 0, 0),
            new BlockStreamHeader(-1, "é".repeat(128), Integer.MAX_VALUE, -1)}) {
            byte[] wire = h.encode();
            assertEquals(wire.length, BlockStreamHeader.size(Arrays.copyOf(wire, BlockStreamHeader.PREFIX)));
            assertEquals(h, BlockStreamHeader.decode(wire));
        }
    }

    @Test
    void size_badMagic_throwsMalformedNamingIt() {
        byte[] wire = H.encode();
        wire[0] = 0x12;
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> BlockStreamHeader.size(wire));
        assertTrue(e.getMessage().contains("magic 12424253"), e.getMessage());
    }

    @Test
    void size_unknownVersion_throwsMalformedNamingIt() {
        byte[] wire = H.encode();
        wire[4] = 9;
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> BlockStreamHeader.size(wire));
        assertTrue(e.getMessage().contains("version 9"), e.getMessage());
    }

    @Test
    void size_bodyLengthOutOfRange_throwsMalformed() {
        for (int body : new int[] {0, 18, BlockStreamHeader.MAX_BODY + 1, 0xFFFF}) {
            byte[] wire = H.encode();
            ByteBuffer.wrap(wire).putShort(5, (short) body);
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> BlockStreamHeader.size(wire));
            assertTrue(e.getMessage().contains(String.valueOf(body)), e.getMessage());
        }
    }

    @Test
    void decode_everyTruncation_throwsMalformedOrIllegalArgument() {
        byte[] wire = H.encode();
        for (int n = 0; n < wire.length; n++) {
            byte[] cut = Arrays.copyOf(wire, n);
            if (n < BlockStreamHeader.PREFIX) {
                assertThrows(IllegalArgumentException.class, () -> BlockStreamHeader.size(cut));
            } else {
                assertThrows(MalformedMessageException.class, () -> BlockStreamHeader.decode(cut));
            }
        }
    }

    @Test
    void decode_negativeLength_throwsMalformedNamingIt() {
        byte[] wire = H.encode();
        ByteBuffer.wrap(wire).putInt(wire.length - 8, -5);
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> BlockStreamHeader.decode(wire));
        assertTrue(e.getMessage().contains("-5"), e.getMessage());
    }

    @Test
    void decode_bodyLongerThanFields_throwsMalformed() {
        byte[] wire = Arrays.copyOf(H.encode(), H.encode().length + 3);
        ByteBuffer.wrap(wire).putShort(5, (short) (wire.length - BlockStreamHeader.PREFIX));
        assertThrows(MalformedMessageException.class, () -> BlockStreamHeader.decode(wire));
    }

    @Test
    void decode_randomMutations_onlyMalformed() {
        Random r = new Random(9);
        byte[] valid = H.encode();
        for (int i = 0; i < 5000; i++) {
            byte[] bad = valid.clone();
            bad[r.nextInt(bad.length)] = (byte) r.nextInt(256);
            try {
                BlockStreamHeader.decode(bad);
            } catch (MalformedMessageException expected) {
                // fine: refused with a reason
            }
        }
    }

    @Test
    void new_badArguments_areRejectedNamingTheValue() {
        assertThrows(IllegalArgumentException.class, () -> new BlockStreamHeader(1, "", 1, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BlockStreamHeader(1, "b", -3, 0));
        assertTrue(e.getMessage().contains("-3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new BlockStreamHeader(1, "x".repeat(257), 1, 0));
    }
}
