package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.node.s3.body.RangeFileSink;
import geoblocks.node.s3.object.ETags;
import geoblocks.node.s3.object.S3Copy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CopyObject's and UploadPartCopy's helpers: the copy source header and the range sink. */
class CopySupportTest {
    @TempDir
    Path dir;

    @Test
    void copySource_acceptsS3FormsAndRefusesBadOnes() throws Exception {
        assertArrayEquals(new String[] {"bkt", "a b/c"}, S3Copy.copySource("bkt/a%20b/c"));
        assertArrayEquals(new String[] {"bkt", "k"}, S3Copy.copySource("/bkt/k?versionId=v1"));
        for (String bad : new String[] {"bkt", "bkt/", "/k", "bkt/../x", "bkt/%zz"}) {
            S3Exception e = assertThrows(S3Exception.class, () -> S3Copy.copySource(bad), bad);
            assertEquals(S3Error.INVALID_ARGUMENT, e.error(), bad);
        }
    }

    @Test
    void rangeSink_keepsTheRange_andSkipsWhatARetrySendsAgain() throws Exception {
        byte[] all = new byte[100];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        Path f = Files.createFile(dir.resolve("part"));
        try (RangeFileSink s = new RangeFileSink(f, 10, 50)) {
            s.write(0, Arrays.copyOfRange(all, 0, 30));
            s.begin(); // a retried download: offset 0 again
            s.write(0, Arrays.copyOfRange(all, 0, 40));
            s.write(40, Arrays.copyOfRange(all, 40, 100));
            assertEquals(50, s.written());
            assertArrayEquals(ETags.md5().digest(Arrays.copyOfRange(all, 10, 60)), s.md5());
        }
        assertArrayEquals(Arrays.copyOfRange(all, 10, 60), Files.readAllBytes(f));
    }
}
