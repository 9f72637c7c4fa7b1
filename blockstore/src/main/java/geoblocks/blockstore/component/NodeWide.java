package geoblocks.blockstore.component;

import geoblocks.blockstore.core.ForegroundHold;
import geoblocks.blockstore.core.MemoryBudget;
import geoblocks.blockstore.core.TransferCounters;
import geoblocks.blockstore.core.liveness.HeardReports;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the components of one node that serve file ops (the file service and the peer service) share, created
 * once by the node's parent: the transfer memory, the block bytes moved, which peer signals to send (proof of
 * life for the failure detector, foreground rates for LEDBAT) and the count of messages dropped because their
 * handler failed. Every member is thread-safe (each holds its own monitor, or is atomic), since Kompics runs the
 * two components on different threads in production; each component triggers the signals on its own ports.
 */
final class NodeWide {
    /** Request ids: the file service issues the first series of two, the peer service the second (RequestIds). */
    static final int ID_SERIES = 2;

    private final MemoryBudget budget;
    private final TransferCounters counters = new TransferCounters();
    private final HeardReports heard = new HeardReports(HeardReports.DEFAULT_SPACING_NANOS);
    private final ForegroundHold foreground = new ForegroundHold(ForegroundHold.DEFAULT_HOLD_NANOS);
    private final AtomicLong dropped = new AtomicLong();

    /** A node's shared state with {@code memoryBudgetBytes} of transfer memory. */
    NodeWide(long memoryBudgetBytes) {
        this.budget = new MemoryBudget(memoryBudgetBytes);
    }

    MemoryBudget budget() {
        return budget;
    }

    TransferCounters counters() {
        return counters;
    }

    HeardReports heard() {
        return heard;
    }

    ForegroundHold foreground() {
        return foreground;
    }

    /** A message was dropped (its handler failed); true for the ones worth a log line (every 1000th). */
    boolean dropped() {
        return dropped.getAndIncrement() % 1000 == 0;
    }

    /** Messages dropped so far by any component of the node. */
    long droppedCount() {
        return dropped.get();
    }
}
