package geoblocks.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class BytesTest {
    @Test
    void heapBytes_areTheArray_slicesShareIt_andViewsStartAtZero() {
        byte[] a = {1, 2, 3, 4, 5, 6};
        Bytes b = Bytes.wrap(a);
        assertEquals(6, b.length());
        assertSame(a, b.toArray(), "whole heap bytes are the array itself");
        Bytes s = b.slice(2, 3);
        assertArrayEquals(new byte[] {3, 4, 5}, s.toArray());
        ByteBuffer v = s.nio();
        assertEquals(0, v.position());
        assertEquals(3, v.limit());
        assertEquals(3, v.get(0));
        a[2] = 9;
        assertEquals(9, s.nio().get(0), "a slice shares the memory");
        assertArrayEquals(new byte[] {4}, s.slice(1, 1).toArray());
        b.release();
        b.release(); // heap: nothing to give back, twice is harmless
        assertEquals(0, Bytes.EMPTY.length());
    }

    @Test
    void slicesOutsideTheBytes_areRefused() {
        Bytes b = Bytes.wrap(new byte[10]);
        assertThrows(IndexOutOfBoundsException.class, () -> b.slice(-1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> b.slice(5, 6));
        assertThrows(IndexOutOfBoundsException.class, () -> b.slice(0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> b.slice(Integer.MAX_VALUE, 2));
        assertEquals(0, b.slice(10, 0).length());
    }

    @Test
    void theHeapAllocator_givesZeroedBytesToFill() {
        Bytes b = Bytes.Allocator.HEAP.allocate(4);
        b.nio().put(new byte[] {7, 8, 9, 10});
        assertArrayEquals(new byte[] {7, 8, 9, 10}, b.toArray());
    }
}
