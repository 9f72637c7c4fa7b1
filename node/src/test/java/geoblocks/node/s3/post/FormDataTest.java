package geoblocks.node.s3.post;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The streaming multipart/form-data reader: whole and split at every byte, bad and fuzzed input. */
class FormDataTest {
    static final String B = "XyZzY123";

    static final class Collect implements FormData.Listener {
        final Map<String, String> fields = new LinkedHashMap<>();
        final ByteArrayOutputStream file = new ByteArrayOutputStream();
        String filename;
        String type;
        int ends;

        @Override
        public void field(String name, String value) {
            fields.put(name, value);
        }

        @Override
        public void fileStart(String f, String t) {
            filename = f;
            type = t;
        }

        @Override
        public void fileBytes(ByteBuffer b) {
            byte[] a = new byte[b.remaining()];
            b.get(a);
            file.write(a, 0, a.length);
        }

        @Override
        public void fileEnd() {
            ends++;
        }
    }

    static byte[] body(byte[] file) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.writeBytes(("preamble\r\n--" + B + "\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nfoo/${filename}\r\n--" + B
                + "\r\nContent-Disposition: form-data; name=\"x-amz-meta-a\"\r\n\r\nline1\r\nline2\r\n--" + B
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a b.txt\"\r\nContent-Type: text/plain\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        o.writeBytes(file);
        o.writeBytes(("\r\n--" + B + "\r\nContent-Disposition: form-data; name=\"after\"\r\n\r\nignored\r\n--" + B + "--\r\n")
                .getBytes(StandardCharsets.UTF_8));
        return o.toByteArray();
    }

    static Collect parse(byte[] body, int split) throws Exception {
        Collect c = new Collect();
        FormData f = new FormData(B, 1024, 10, c);
        for (int i = 0; i < body.length; i += split) {
            f.feed(ByteBuffer.wrap(body, i, Math.min(split, body.length - i)));
        }
        f.finish();
        return c;
    }

    @Test
    void readsFieldsAndStreamsTheFileAtAnySplit() throws Exception {
        byte[] file = ("bar\r\n--" + B.substring(0, 4) + " not a boundary\r\n-").getBytes(StandardCharsets.UTF_8);
        for (int split = 1; split < 40; split++) {
            Collect c = parse(body(file), split);
            assertEquals(Map.of("key", "foo/${filename}", "x-amz-meta-a", "line1\r\nline2"), c.fields, "split " + split);
            assertArrayEquals(file, c.file.toByteArray(), "split " + split);
            assertEquals("a b.txt", c.filename);
            assertEquals("text/plain", c.type);
            assertEquals(1, c.ends);
        }
    }

    @Test
    void aLargeFileIsNotHeldWhole() throws Exception {
        byte[] file = new byte[3 << 20];
        new Random(7).nextBytes(file);
        Collect c = parse(body(file), 65536);
        assertArrayEquals(file, c.file.toByteArray());
    }

    @Test
    void boundaryFromContentType() {
        assertEquals("abc", FormData.boundary("multipart/form-data; boundary=abc"));
        assertEquals("a b", FormData.boundary("Multipart/Form-Data; charset=utf-8; boundary=\"a b\""));
        assertNull(FormData.boundary("application/x-www-form-urlencoded"));
        assertNull(FormData.boundary(null));
        assertThrows(IllegalArgumentException.class, () -> new FormData("", 10, 10, new Collect()));
    }

    @Test
    void badInputIsIllegalArgument() {
        String noName = "--" + B + "\r\nContent-Disposition: form-data\r\n\r\nx\r\n--" + B + "--";
        String tooBig = "--" + B + "\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\n" + "x".repeat(5000) + "\r\n--" + B + "--";
        String truncated = "--" + B + "\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc";
        for (String s : new String[] {noName, tooBig, truncated, "no boundary at all"}) {
            assertThrows(IllegalArgumentException.class, () -> parse(s.getBytes(StandardCharsets.UTF_8), 7), s);
        }
    }

    @Test
    void fuzzedBodiesFailCleanly() {
        Random r = new Random(11);
        byte[] good = body("hello".getBytes(StandardCharsets.UTF_8));
        int ok = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] b = good.clone();
            for (int j = 0; j < 1 + r.nextInt(3); j++) {
                b[r.nextInt(b.length)] = (byte) r.nextInt(256);
            }
            try {
                parse(b, 1 + r.nextInt(50));
                ok++;
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage() != null);
            } catch (Exception e) {
                throw new AssertionError("unexpected " + e, e);
            }
        }
        assertTrue(ok > 0, "some mutations (in the preamble or the file) still parse");
    }
}
