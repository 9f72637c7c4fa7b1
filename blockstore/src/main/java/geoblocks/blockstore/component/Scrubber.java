package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Background scrubber: walks every block this node should hold (per every version of every manifest
 * it keeps, so earlier versions stay readable until the retention drops them), at
 * most {@code bytesPerSecond}, re-reading and verifying each against its stored and its manifest
 * CRC32C. A missing or corrupt replica is repaired from a healthy replica elsewhere (fetched with
 * the same checksum checks as a download) and written with the store's atomic replace, so the bad
 * copy is only replaced once a good one is durable. With {@code background} (background-transport =
 * ledbat) the repair is pushed by a healthy replica over LEDBAT instead of fetched over TCP. One
 * block at a time; passes start at most every {@code passIntervalNanos}.
 */
final class Scrubber {
    private final Node node;
    private final long bytesPerSecond;
    private final long passIntervalNanos;
    /** Null: repairs fetch over TCP. */
    private final BackgroundTransfers background;
    private String cursorName = "";
    private int cursorVersion;
    private int cursorBlock;
    private boolean busy;
    private double credit;
    private long passStart = Long.MIN_VALUE;
    private boolean passDone = true;
    long scrubbed;
    long repaired;
    long unrepairable;

    Scrubber(Node node, long bytesPerSecond, long passIntervalNanos, BackgroundTransfers background) {
        this.background = background;
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
            cursorName = "";
            cursorVersion = 0;
            cursorBlock = 0;
        }
        next();
    }

    /** Verifies the next block this node holds, if credit allows and nothing is in progress. */
    private void next() {
        if (busy || credit <= 0 || passDone) {
            return;
        }
        Optional<ManifestHistory> h = node.manifests().history(cursorName);
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
            List<ManifestHistory> after = node.manifests().histories(cursorName, 1);
            if (after.isEmpty()) {
                passDone = true;
                return;
            }
            h = Optional.of(after.get(0));
            cursorName = h.get().name();
            cursorVersion = 0;
            cursorBlock = 0;
        }
    }

    private void verify(Manifest m, int index) {
        Manifest.BlockRef ref = m.blocks().get(index);
        BlockId id = m.blockId(index);
        busy = true;
        credit -= ref.length();
        node.readLocal(id, read -> {
            if (read.block() != null && read.block().crc() == ref.crc() && read.block().length() == ref.length()) {
                scrubbed++;
                busy = false;
                next();
                return;
            }
            String problem = read.block() == null ? read.error()
                    : "checksum " + Checksums.hex(read.block().crc()) + " != manifest " + Checksums.hex(ref.crc());
            repair(m, index, id, ref, problem);
        });
    }

    private void repair(Manifest m, int index, BlockId id, Manifest.BlockRef ref, String problem) {
        if (background != null) {
            List<NetAddress> holders = new ArrayList<>();
            for (String r : node.rtt().readOrder(ref.replicas())) {
                if (!r.equals(node.region())) {
                    holders.add(node.addressOf(r));
                }
            }
            background.pull(holders, id, ref.length(), ref.crc(), why -> {
                if (why == null) {
                    repaired(m, id, problem);
                } else {
                    unrepairable(m, id, problem, why);
                }
            });
            return;
        }
        Downloads.fetch(node, m, index, true, data -> node.storeLocal(id, data, ref.crc(), stored -> {
            if (stored.error() == null) {
                repaired(m, id, problem);
            } else {
                unrepairable(m, id, problem, "could not rewrite it: " + stored.error());
            }
        }), why -> unrepairable(m, id, problem, "no healthy replica answered: " + why));
    }

    private void repaired(Manifest m, BlockId id, String problem) {
        repaired++;
        Logs.info(node.region() + ": repaired block " + id + " of '" + m.name() + "' (" + problem + ")"
                + (background != null ? " over LEDBAT" : ""));
        busy = false;
        next();
    }

    private void unrepairable(Manifest m, BlockId id, String problem, String why) {
        unrepairable++;
        Logs.warn(node.region() + ": block " + id + " of '" + m.name() + "' is bad here (" + problem + "): " + why);
        busy = false;
        next();
    }
}
