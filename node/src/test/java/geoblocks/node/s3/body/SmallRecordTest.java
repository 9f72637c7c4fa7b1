package geoblocks.node.s3.body;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class SmallRecordTest {
    @Test
    void keepsWhatWasWritten_andStartsOverOnBegin() throws IOException {
        SmallRecord r = new SmallRecord(8, "tag file t");
        r.write(0, new byte[] {1, 2, 3});
        r.write(3, new byte[] {4});
        assertArrayEquals(new byte[] {1, 2, 3, 4}, r.bytes());
        r.begin(); // a retried download streams from offset 0 again
        r.write(0, new byte[] {9});
        assertArrayEquals(new byte[] {9}, r.bytes());
    }

    @Test
    void overItsLimit_isAnIOExceptionNamingTheRecord() throws IOException {
        SmallRecord r = new SmallRecord(4, "bucket record of 'b'");
        r.write(0, new byte[4]);
        IOException e = assertThrows(IOException.class, () -> r.write(4, new byte[1]));
        assertEquals("bucket record of 'b' exceeds 4 bytes", e.getMessage());
    }
}
