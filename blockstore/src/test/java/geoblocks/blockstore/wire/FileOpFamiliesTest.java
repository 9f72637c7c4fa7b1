package geoblocks.blockstore.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The file protocol's families: each family's codec has the rows of exactly its ops, the families
 * together are every op once, and an op's kind follows its family.
 */
class FileOpFamiliesTest {
    private static Set<Class<?>> opsOf(Class<?> family) {
        Set<Class<?>> out = new HashSet<>();
        FileOps.records().stream().filter(family::isAssignableFrom).forEach(out::add);
        return out;
    }

    private static Set<Class<?>> rowTypes(List<OpRow<?>> rows) {
        Set<Class<?>> out = new HashSet<>();
        rows.forEach(r -> out.add(r.type()));
        return out;
    }

    @Test
    void eachFamilysCodec_hasTheRowsOfExactlyItsOps() {
        assertEquals(opsOf(ClientOp.class), rowTypes(ClientCodec.ROWS));
        assertEquals(opsOf(PeerOp.class), rowTypes(PeerCodec.ROWS));
        assertEquals(opsOf(BenchOp.class), rowTypes(BenchCodec.ROWS));
        assertEquals(Set.of(FileOp.ManifestPart.class, FileOp.Done.class, FileOp.Failed.class, FileOp.Unknown.class),
                opsOf(FileOp.Shared.class), "Unknown has no row: only the decoder makes one");
    }

    @Test
    void theFamilies_holdEveryOpOnce() {
        int sum = opsOf(ClientOp.class).size() + opsOf(PeerOp.class).size() + opsOf(BenchOp.class).size()
                + opsOf(FileOp.Shared.class).size();
        assertEquals(FileOps.records().size(), sum);
        assertEquals(FileOps.records().size(), new HashSet<>(FileOps.records()).size());
        assertEquals(58, sum, "57 ops with a tag, and Unknown");
    }

    @Test
    void handledOps_areTheRequestsOfEveryFamily_andManifestParts() {
        for (Class<? extends FileOp> c : FileOps.records()) {
            boolean request = ClientOp.Request.class.isAssignableFrom(c) || PeerOp.Request.class.isAssignableFrom(c)
                    || BenchOp.Request.class.isAssignableFrom(c) || BenchOp.PeerRequest.class.isAssignableFrom(c)
                    || BenchOp.Stream.class.isAssignableFrom(c);
            assertEquals(request || c == FileOp.ManifestPart.class || c == FileOp.Unknown.class, FileOps.handled().contains(c),
                    c.getSimpleName());
        }
        assertTrue(FileOps.handled().contains(ClientOp.PutBegin.class));
    }
}
