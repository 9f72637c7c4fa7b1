package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RecordWriterTest {
    /** Chars from every UTF-8 length class, and lone surrogates (which the JDK's encoder writes as '?'). */
    private static final char[] ALPHABET = {'a', 'Z', '0', '/', 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x4e2d, 0xfffd, 0xffff,
        0xd83d, 0xde00, 0xdbff, 0xdc00};

    @Test
    void utf8Length_isTheJdkEncodersLength_forEveryKindOfChar() {
        SplittableRandom rnd = new SplittableRandom(41);
        for (int i = 0; i < 20_000; i++) {
            char[] cs = new char[rnd.nextInt(12)];
            for (int j = 0; j < cs.length; j++) {
                cs[j] = ALPHABET[rnd.nextInt(ALPHABET.length)];
            }
            String s = new String(cs);
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, RecordWriter.utf8Length(s), () -> Arrays.toString(cs));
        }
    }

    @Test
    void str_writesLengthThenUtf8_asciiAndNot() {
        for (String s : new String[] {"", "seoul", "caf\u00e9", "\ud83d\ude00 emoji", "lone \ud83d surrogate"}) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            byte[] buf = new byte[RecordWriter.strSize(s)];
            RecordWriter w = new RecordWriter(buf);
            w.str(s);
            assertEquals(buf.length, w.position(), s);
            assertEquals(utf8.length, ByteBuffer.wrap(buf).getShort() & 0xffff, s);
            assertArrayEquals(utf8, Arrays.copyOfRange(buf, 2, buf.length), s);
        }
    }

    @Test
    void numbersAreBigEndian_andTheCrcCoversWhatWasWritten() {
        byte[] buf = new byte[1 + 2 + 4 + 8 + 4];
        RecordWriter w = new RecordWriter(buf);
        w.u8(0x1ff);
        w.u16(0x1234);
        w.i32(0xcafebabe);
        w.i64(0x0102030405060708L);
        w.crc32cFrom(0);
        ByteBuffer in = ByteBuffer.wrap(buf);
        assertEquals((byte) 0xff, in.get());
        assertEquals(0x1234, in.getShort());
        assertEquals(0xcafebabe, in.getInt());
        assertEquals(0x0102030405060708L, in.getLong());
        assertEquals(Checksums.crc32c(buf, 0, 15), in.getInt());
    }

    @Test
    void aStringOver65535Bytes_isRefused() {
        String big = "\u00e9".repeat(40_000); // 80,000 UTF-8 bytes
        assertThrows(IllegalArgumentException.class, () -> RecordWriter.strSize(big));
        assertEquals(2 + 65_535, RecordWriter.strSize("x".repeat(65_535)));
    }
}
