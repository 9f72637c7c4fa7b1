package geoblocks.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import geoblocks.blockstore.core.DataDir;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DataDirsTest {
    static final long MIB = 1 << 20;
    static final Config BASE = ConfigFactory.parseString("geoblocks.node { data-dir = d, min-free-disk = 256 MiB }");

    @Test
    void noFlagsNoList_isDataDirSlashRegion_withMinFreeDiskAsReserve() {
        assertEquals(List.of(new DataDir(Path.of("d", "seoul"), 0, 256 * MIB)), DataDirs.resolve(BASE, "seoul", List.of()));
    }

    @Test
    void repeatedData_withCapacityAndReserve() {
        assertEquals(List.of(new DataDir(Path.of("/a"), 0, 256 * MIB), new DataDir(Path.of("/b"), 10L << 30, 512 * MIB)),
                DataDirs.resolve(BASE, "seoul", List.of("/a", "/b,capacity=10 GiB,reserve=512MiB")));
    }

    @Test
    void configList_addsTheRegion_andDefaultsCapacityAndReserve() {
        Config c = ConfigFactory.parseString("geoblocks.node.data-dirs = [ { path = /m1, capacity = 1 GiB, reserve = 1 MiB },"
                + " { path = /m2 } ]").withFallback(BASE);
        assertEquals(List.of(new DataDir(Path.of("/m1/dublin"), 1L << 30, MIB), new DataDir(Path.of("/m2/dublin"), 0, 256 * MIB)),
                DataDirs.resolve(c, "dublin", null));
    }

    @Test
    void badSpecs_areRefusedNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataDirs.resolve(BASE, "s", List.of("/a,size=3")));
        assertTrue(e.getMessage().contains("not 'size=3'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DataDirs.resolve(BASE, "s", List.of("/a,capacity=lots")));
        assertTrue(e.getMessage().contains("'lots' is not a size"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DataDirs.resolve(BASE, "s", List.of("/a", "/a/")));
        assertTrue(e.getMessage().contains("given twice"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DataDirs.resolve(BASE, "s", List.of("/a,capacity=1 MiB")));
        assertTrue(e.getMessage().contains("above its reserve"), e.getMessage());
    }
}
