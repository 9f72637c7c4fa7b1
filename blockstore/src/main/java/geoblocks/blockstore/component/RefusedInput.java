package geoblocks.blockstore.component;

import geoblocks.net.WireStats;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Network input the node refused: undecodable or unauthenticated messages (counted by the
 * network's codecs), requests nobody could handle (counted node-wide: {@link NodeWide#dropped}),
 * forbidden admin operations, and background streams refused. Reported by status and logged at most every 10 s, as one line, when it changed.
 * Well-formed replies to requests this node no longer waits for (they came after a timeout, a
 * failover or a cancel) are expected under load and counted apart, in the log line only; so are this
 * node's own links that failed (a peer that is down, a connection that broke with messages queued):
 * nobody sent anything to refuse.
 */
final class RefusedInput {
    private static final Logger LOG = LoggerFactory.getLogger(FileService.class);
    private static final long LOG_EVERY_NANOS = 10_000_000_000L;

    private final String region;
    private final LongSupplier refusedStreams;
    /** Where the node's components count the messages they dropped. */
    private final NodeWide shared;
    private long lateReplies;
    private long linkFailures;
    private long forbidden;
    private long logged;
    private long lastLogNanos;

    RefusedInput(String region, LongSupplier refusedStreams, NodeWide shared) {
        this.region = region;
        this.shared = shared;
        this.refusedStreams = refusedStreams;
    }

    /** A message was dropped (unknown reply, or its handler threw); true for the ones worth a log line (every 1000th). */
    boolean dropped() {
        return shared.dropped();
    }

    long droppedCount() {
        return shared.droppedCount();
    }

    /** A reply to a request nobody waits for any more (timed out, failed over, cancelled): ignored, not refused. */
    void lateReply() {
        lateReplies++;
    }

    /** A link of this node failed: a peer it could not reach, or a connection that broke with messages queued. */
    void linkFailed() {
        linkFailures++;
    }

    long linkFailures() {
        return linkFailures;
    }

    /** Input refused as malformed or unexpected: undecodable, unknown requests, refused streams. */
    long malformedOrUnexpected() {
        return WireStats.malformedCount() + shared.droppedCount() + refusedStreams.getAsLong();
    }

    /** An admin operation from a client not allowed to send one: counted as unauthenticated; true for the first of each 1000 (logged). */
    boolean forbidden() {
        return forbidden++ % 1000 == 0;
    }

    /** Unauthenticated input: failed handshakes and frames before one (the network's count), and forbidden admin operations. */
    long unauthenticated() {
        return WireStats.unauthenticatedCount() + forbidden;
    }

    /** Logs how much was refused since the last line, if anything was and 10 s have passed. */
    void log(long now) {
        long refused = malformedOrUnexpected() + unauthenticated();
        if (refused != logged && now - lastLogNanos > LOG_EVERY_NANOS) {
            LOG.warn("{}: refused {} network messages in the last period ({} malformed/unexpected, {} unauthenticated so far;"
                    + " {} late replies ignored, {} own links failed)", region, refused - logged, malformedOrUnexpected(),
                    unauthenticated(), lateReplies, linkFailures);
            logged = refused;
            lastLogNanos = now;
        }
    }
}
