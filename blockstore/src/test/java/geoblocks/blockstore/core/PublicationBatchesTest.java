package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PublicationBatchesTest {

    @Test
    void aLoneWriter_sendsAtOnce_oneItemPerBatch() {
        PublicationBatches<String> b = new PublicationBatches<>(1, 64, 1 << 20);
        assertEquals(List.of("a"), b.offer("dublin", "a", 100).items());
        assertNull(b.answered("dublin"));
        assertEquals(List.of("b"), b.offer("dublin", "b", 100).items());
        assertEquals(0, b.queued("dublin"));
    }

    @Test
    void whileTheWindowIsFull_itemsWait_andLeaveTogetherInOrder() {
        PublicationBatches<String> b = new PublicationBatches<>(1, 64, 1 << 20);
        assertEquals(List.of("a"), b.offer("dublin", "a", 10).items());
        assertNull(b.offer("dublin", "b", 10));
        assertNull(b.offer("dublin", "c", 10));
        assertEquals(2, b.queued("dublin"));
        PublicationBatches.Batch<String> next = b.answered("dublin");
        assertEquals("dublin", next.peer());
        assertEquals(List.of("b", "c"), next.items());
        assertEquals(1, b.inFlight("dublin"));
        assertNull(b.answered("dublin"));
        assertEquals(0, b.inFlight("dublin"));
    }

    @Test
    void peersHaveWindowsOfTheirOwn() {
        PublicationBatches<String> b = new PublicationBatches<>(1, 64, 1 << 20);
        b.offer("dublin", "a", 10);
        assertNull(b.offer("dublin", "b", 10));
        assertEquals(List.of("a"), b.offer("mumbai", "a", 10).items(), "a busy dublin does not hold mumbai back");
    }

    @Test
    void aWindowOfTwo_keepsTwoBatchesInFlight() {
        PublicationBatches<String> b = new PublicationBatches<>(2, 64, 1 << 20);
        assertEquals(List.of("a"), b.offer("dublin", "a", 10).items());
        assertEquals(List.of("b"), b.offer("dublin", "b", 10).items());
        assertNull(b.offer("dublin", "c", 10));
        assertEquals(List.of("c"), b.answered("dublin").items());
    }

    @Test
    void batchesStopAtTheItemAndByteCaps_aLargeItemGoesAlone() {
        PublicationBatches<String> b = new PublicationBatches<>(1, 3, 100);
        b.offer("p", "first", 1);
        for (String s : List.of("a", "b", "c", "d")) {
            b.offer("p", s, 10);
        }
        assertEquals(List.of("a", "b", "c"), b.answered("p").items(), "at most 3 items");
        b.offer("p", "big", 500);
        b.offer("p", "e", 60);
        assertEquals(List.of("d"), b.answered("p").items(), "big would pass 100 bytes after d");
        assertEquals(List.of("big"), b.answered("p").items(), "an item over the cap leaves alone");
        assertEquals(List.of("e"), b.answered("p").items());
        assertNull(b.answered("p"));
    }

    @Test
    void anAnswerWithNothingInFlight_isAnError() {
        PublicationBatches<String> b = new PublicationBatches<>(1, 8, 100);
        assertThrows(IllegalStateException.class, () -> b.answered("dublin"));
        assertThrows(IllegalArgumentException.class, () -> new PublicationBatches<String>(0, 8, 100));
    }

    /** Random offers and answers: every item is sent exactly once, in offer order, never past the window. */
    @Test
    void randomTraffic_everyItemLeavesOnceInOrder() {
        Random rnd = new Random(7);
        for (int round = 0; round < 200; round++) {
            int window = 1 + rnd.nextInt(3);
            PublicationBatches<Integer> b = new PublicationBatches<>(window, 1 + rnd.nextInt(8), 50 + rnd.nextInt(200));
            List<Integer> sent = new ArrayList<>();
            int inFlight = 0;
            int offered = 0;
            for (int step = 0; step < 300; step++) {
                PublicationBatches.Batch<Integer> out;
                if (inFlight > 0 && rnd.nextBoolean()) {
                    out = b.answered("p");
                    inFlight--;
                } else {
                    out = b.offer("p", offered++, 1 + rnd.nextInt(80));
                }
                if (out != null) {
                    sent.addAll(out.items());
                    inFlight++;
                }
                assertEquals(inFlight, b.inFlight("p"));
                assertEquals(true, inFlight <= window);
            }
            while (inFlight > 0) {
                PublicationBatches.Batch<Integer> out = b.answered("p");
                inFlight--;
                if (out != null) {
                    sent.addAll(out.items());
                    inFlight++;
                }
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < offered; i++) {
                expected.add(i);
            }
            assertEquals(expected, sent);
            assertEquals(offered, b.items());
        }
    }
}
