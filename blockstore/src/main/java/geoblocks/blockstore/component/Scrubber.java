package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.wire.Failure;
import java.util.List;
import java.util.Optional;

/**
 * Background scrubber: walks every block this node should hold (per every version of every manifest
 * it keeps, so earlier versions stay readable until the retention drops them), at
 * most {@code bytesPerSecond}, re-reading and verifying each against its stored and its manifest
 * CRC32C. A missing or corrupt replica is repaired from a healthy replica elsewhere (fetched with
 * the same checksum checks as a download) and written with the store's atomic replace, so the bad
 * copy is only replaced once a good one is durable ({@link BlockPull}: over LEDBAT with
 * background-transport = ledbat, else over TCP). One
 * block at a time; passes start at most every {@code passIntervalNanos}. Its progress (passes
 * finished, blocks checked in the current or last pass, when the pass started and the last one
 * ended) goes into the node snapshot ({@link #progress}).
 */
final class Scrubber {
    private final Node node;
    private final long bytesPerSecond;
    private final long passIntervalNanos;
    private final BlockPull pulls;
    private String cursorName = "";
    private int cursorVersion;
    private int cursorBlock;
    private boolean busy;
    private double credit;
    private long passStart = Long.MIN_VALUE;
    private boolean passDone = true;
    private long passes;
    private long passBlocks;
    private long lastPassEnd = Long.MIN_VALUE;
    long scrubbed;
    long repaired;
    long unrepairable;

    Scrubber(Node node, long bytesPerSecond, long passIntervalNanos, BlockPull pulls) {
        this.pulls = pulls;
        this.node = node;
        this.bytesPerSecond = bytesPerSecond;
        this.passIntervalNanos = passIntervalNanos;
    }

    /** Called periodically; {@code elapsedNanos} since the last call. */
    void tick(long now, long elapsedNanos) {
        if (bytesPerSecond <= 0) {
            return;
        }
        credit = Math.min(credit + bytesPerSecond * (elapsedNanos / 1e9), bytesPerSecond);
        if (passDone) {
            if (now - passStart < passIntervalNanos && passStart != Long.MIN_VALUE) {
                return;
            }
            passStart = now;
            passDone = false;
            passBlocks = 0;
            cursorName = "";
            cursorVersion = 0;
            cursorBlock = 0;
            page = List.of();
        }
        next();
    }

    /**
     * Starts a new pass from the first name at once, whatever the pass interval and wherever a pass
     * under way was (blocks it checked may be among those just lost).
     */
    void startPassNow(long now) {
        passStart = now;
        passDone = false;
        passBlocks = 0;
        cursorName = "";
        cursorVersion = 0;
        cursorBlock = 0;
        page = List.of();
        next();
    }

    /** Names read per engine scan while looking for the next block held here. */
    static final int PAGE = 256;
    /**
     * Names one call looks at before it yields to the next tick: a store of objects kept inline (no
     * blocks) is walked a bounded slice at a time, not in one long stall of the node's thread.
     */
    static final int NAMES_PER_CALL = 4096;
    /** Histories after {@link #cursorName}, read ahead to skip names without blocks here; may be stale. */
    private List<ManifestHistory> page = List.of();
    private int pageAt;

    /** Verifies the next block this node holds, if credit allows and nothing is in progress. */
    private void next() {
        if (busy || credit <= 0 || passDone) {
            return;
        }
        Optional<ManifestHistory> h = node.manifests().history(cursorName);
        int names = 0;
        while (true) {
            if (h.isPresent()) {
                List<Manifest> versions = h.get().versions();
                while (cursorVersion < versions.size()) {
                    Manifest m = versions.get(cursorVersion);
                    List<Manifest.BlockRef> blocks = m.blocks();
                    while (cursorBlock < blocks.size() && !blocks.get(cursorBlock).replicas().contains(node.region())) {
                        cursorBlock++;
                    }
                    if (cursorBlock < blocks.size()) {
                        verify(m, cursorBlock++);
                        return;
                    }
                    cursorVersion++;
                    cursorBlock = 0;
                }
            }
            if (++names > NAMES_PER_CALL) {
                return; // the rest at the next tick: cursorName's versions are done, so it resumes after it
            }
            if (pageAt >= page.size()) {
                page = node.manifests().histories(cursorName, PAGE);
                pageAt = 0;
                if (page.isEmpty()) {
                    passDone = true;
                    passes++;
                    lastPassEnd = node.now();
                    return;
                }
            }
            ManifestHistory ahead = page.get(pageAt++);
            cursorName = ahead.name();
            cursorVersion = 0;
            cursorBlock = 0;
            // the page may be stale: a name with a block here is read again before its blocks are verified
            h = holdsHere(ahead) ? node.manifests().history(cursorName) : Optional.empty();
        }
    }

    private boolean holdsHere(ManifestHistory h) {
        for (Manifest m : h.versions()) {
            for (Manifest.BlockRef b : m.blocks()) {
                if (b.replicas().contains(node.region())) {
                    return true;
                }
            }
        }
        return false;
    }

    private void verify(Manifest m, int index) {
        Manifest.BlockRef ref = m.blocks().get(index);
        BlockId id = m.blockId(index);
        busy = true;
        credit -= ref.length();
        node.readLocal(id, read -> {
            if (read.block() != null && read.block().crc() == ref.crc() && read.block().length() == ref.length()) {
                scrubbed++;
                passBlocks++;
                busy = false;
                next();
                return;
            }
            String problem = read.block() == null ? read.failure().text()
                    : "checksum " + Checksums.hex(read.block().crc()) + " != manifest " + Checksums.hex(ref.crc());
            repair(m, id, ref, problem);
        });
    }

    private void repair(Manifest m, BlockId id, Manifest.BlockRef ref, String problem) {
        pulls.pull(id, ref.length(), ref.crc(), ref.replicas(), why -> {
            if (why == null) {
                repaired(m, id, problem);
            } else {
                unrepairable(m, id, problem, why);
            }
        });
    }

    private void repaired(Manifest m, BlockId id, String problem) {
        repaired++;
        passBlocks++;
        Logs.info(node.region() + ": repaired block " + id + " of '" + m.name() + "' (" + problem + ")"
                + pulls.via());
        busy = false;
        next();
    }

    private void unrepairable(Manifest m, BlockId id, String problem, Failure why) {
        unrepairable++;
        passBlocks++;
        Logs.warn(node.region() + ": block " + id + " of '" + m.name() + "' is bad here (" + problem + "): " + why.text());
        busy = false;
        next();
    }

    /**
     * Pass progress at {@code nowNanos} (the node's clock), with its times turned into epoch ms
     * through {@code nowMillis}, the wall clock at the same instant.
     */
    NodeSnapshot.Scrub progress(long nowNanos, long nowMillis) {
        return new NodeSnapshot.Scrub(passes, !passDone, passBlocks, epochMillis(passStart, nowNanos, nowMillis),
                epochMillis(lastPassEnd, nowNanos, nowMillis));
    }

    /** {@code atNanos} on the wall clock; -1 for {@link Long#MIN_VALUE} (never). */
    static long epochMillis(long atNanos, long nowNanos, long nowMillis) {
        return atNanos == Long.MIN_VALUE ? -1 : nowMillis - (nowNanos - atNanos) / 1_000_000L;
    }
}
