package geoblocks.blockstore.core.ec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ErasureCodeTest {
    @Test
    void validCodes_countFragmentsAndOverhead() {
        ErasureCode c = new ErasureCode(3, 1);
        assertEquals(4, c.fragments());
        assertEquals(4.0 / 3, c.overhead(), 1e-12);
        assertEquals("3+1", c.toString());
        assertEquals(255, new ErasureCode(254, 1).fragments());
        assertEquals(255, new ErasureCode(200, 55).newCoder().code().fragments()); // the library takes the widest code
        assertEquals(new ErasureCode(3, 1), c.newCoder().code());
    }

    @Test
    void noData_noParity_orMoreThan255Fragments_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ErasureCode(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ErasureCode(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ErasureCode(3, 0));
        assertThrows(IllegalArgumentException.class, () -> new ErasureCode(200, 56));
    }

    @Test
    void coder_refusesCellsOfTheWrongCountOrLength() {
        ErasureCoder c = new ErasureCode(2, 1).newCoder();
        assertThrows(IllegalArgumentException.class, () -> c.encode(new byte[3][4], new byte[1][4], 4));
        assertThrows(IllegalArgumentException.class, () -> c.encode(new byte[2][4], new byte[1][2], 4));
        assertThrows(IllegalArgumentException.class,
                () -> c.reconstruct(new byte[][] {new byte[4], null, null}, new int[] {1}, new byte[1][4], 4));
        assertThrows(IllegalArgumentException.class,
                () -> c.reconstruct(new byte[][] {new byte[4], new byte[4], null}, new int[] {3}, new byte[1][4], 4));
    }

    @Test
    void coder_paritySurvivesTheLossOfAnyOneCell() {
        ErasureCoder c = new ErasureCode(2, 1).newCoder();
        byte[][] data = {{1, 2, 3}, {4, 5, 6}};
        byte[][] parity = new byte[1][3];
        c.encode(data, parity, 3);
        byte[][] out = new byte[1][3];
        c.reconstruct(new byte[][] {null, data[1], parity[0]}, new int[] {0}, out, 3);
        assertEquals(Arrays.toString(data[0]), Arrays.toString(out[0]));
    }
}
