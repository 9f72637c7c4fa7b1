package geoblocks.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.blockstore.core.ec.ErasureCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code bench ec} measures and how it reads its options; its figures are not asserted. */
class EcBenchTest {
    @Test
    void codes_areDataPlusParity() {
        assertEquals(new ErasureCode(3, 1), EcBenchCommand.code("3+1"));
        assertEquals(new ErasureCode(6, 3), EcBenchCommand.code(" 6 + 3 "));
        for (String bad : List.of("3", "3+", "a+1", "3+1+1", "0+1", "3+0")) {
            assertThrows(IllegalArgumentException.class, () -> EcBenchCommand.code(bad), bad);
        }
    }

    @Test
    void eachCodeAndSize_givesEncode_andDecodeWith0_1_andMLost() throws IOException {
        EcBench bench = new EcBench(16, 0.001, 1);
        List<EcBench.Row> rows = new ArrayList<>();
        bench.run(new ErasureCode(4, 2), 1000, rows::add);
        bench.run(new ErasureCode(3, 1), 0, rows::add);
        assertEquals(List.of("encode", "decode, 0 lost", "decode, 1 lost", "decode, 2 lost", "encode", "decode, 0 lost",
                "decode, 1 lost"), rows.stream().map(EcBench.Row::what).toList());
        assertEquals(List.of("4+2", "4+2", "4+2", "4+2", "3+1", "3+1", "3+1"), rows.stream().map(EcBench.Row::code).toList());
    }
}
