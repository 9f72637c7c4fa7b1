package geoblocks.blockstore.core.placement;

import static geoblocks.blockstore.core.placement.Fixtures.MIB;
import static geoblocks.blockstore.core.placement.Fixtures.disk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.DiskSpace;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LoadViewTest {
    @Test
    void placedSinceTheReport_isTakenOffTheFreeSpace_untilTheNextReport() {
        LoadView v = new LoadView();
        v.report("seoul", disk(100, 10));
        v.placed(List.of("seoul", "dublin"), 3 * MIB);
        v.placed(List.of("seoul"), 2 * MIB);
        assertEquals(5 * MIB, v.current().get("seoul").disk().freeBytes());
        assertFalse(v.current().containsKey("dublin"), "no report from dublin yet");
        assertFalse(v.current().get("seoul").disk().fits(2 * MIB), "5 MiB free, 4 reserved");
        v.report("seoul", disk(100, 9));
        assertEquals(9 * MIB, v.current().get("seoul").disk().freeBytes());
    }

    @Test
    void unknownDisk_staysUnknownAndFits() {
        LoadView v = new LoadView();
        v.report("mumbai", NodeLoad.UNKNOWN);
        v.placed(List.of("mumbai"), 1L << 40);
        assertTrue(v.current().get("mumbai").disk().fits(1L << 40));
    }

    @Test
    void meter_ratesTheBytesBetweenSamples_andReadsTheDisk() {
        AtomicReference<DiskSpace> disk = new AtomicReference<>(new DiskSpace(100, 60, 10));
        LoadMeter m = new LoadMeter(disk::get);
        assertEquals(new NodeLoad(new DiskSpace(100, 60, 10), 0), m.sample(1_000_000_000L));
        m.recordIo(3 * MIB);
        m.recordIo(MIB);
        disk.set(new DiskSpace(100, 50, 10));
        NodeLoad l = m.sample(3_000_000_000L); // 4 MiB in 2 s
        assertEquals(2 * MIB, l.ioBytesPerSecond());
        assertEquals(50, l.disk().freeBytes());
        assertEquals(0, m.sample(4_000_000_000L).ioBytesPerSecond());
    }

    @Test
    void diskSpace_fitsUsedAndMinus() {
        DiskSpace d = new DiskSpace(100, 30, 10);
        assertEquals(0.7, d.used(), 1e-12);
        assertTrue(d.fits(20));
        assertFalse(d.fits(21));
        assertEquals(new DiskSpace(100, 0, 10), d.minus(50));
        assertTrue(Double.isNaN(DiskSpace.UNKNOWN.used()));
        assertEquals(DiskSpace.UNKNOWN, DiskSpace.UNKNOWN.minus(5));
    }
}
