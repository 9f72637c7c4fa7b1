package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.ClientOp.Committed;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Failed;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What an upload's client hears once its version is stored here and published: Committed, or, when the
 * version's durability promise is not met, OUTCOME_UNKNOWN (the version exists here and may still spread
 * and win). Pure: the publication's outcome in, the answer out.
 */
final class UploadAcks {
    private UploadAcks() {}

    /**
     * A version of blocks. With ack all and blocks at other regions, Committed only when at least one
     * region other than {@code self} confirmed the manifest: then no single metadata disk holds the only
     * reference to the blocks (anti-entropy brings it back to a region that lost it, and to a block holder
     * that missed it, before that holder's GC may take them). With ack local, Committed whoever answered
     * (the copies are still owed).
     *
     * @param peers the regions the manifest was published to or found down
     * @param unreached those that did not confirm it (down, failed or silent)
     */
    static FileOp blocks(long req, String name, Manifest m, String self, boolean ackLocal, Collection<String> peers,
            List<String> unreached, String note) {
        Set<String> holding = new TreeSet<>();
        if (!ackLocal) {
            m.blocks().forEach(b -> holding.addAll(b.replicas()));
            holding.remove(self);
        }
        if (holding.isEmpty() || peers.stream().anyMatch(p -> !unreached.contains(p))) {
            return committed(req, m, unreached, note);
        }
        return new Failed(req, FailureCode.OUTCOME_UNKNOWN, "upload of '" + name + "' failed: no other region confirmed"
                + " storing its manifest (" + unreached + ": down, failed or silent), and " + holding + " hold its blocks;"
                + " version " + m.version().id() + " is stored at " + self + " alone and may or may not become the"
                + " file's content (anti-entropy brings it to every region)");
    }

    /**
     * An inline version (its bytes in the manifest): Committed when every {@code required} region holds it
     * ({@code holding} already do: this node, and the owner that decided a create).
     */
    static FileOp inline(long req, String name, Manifest m, String policy, List<String> required, Set<String> holding,
            List<String> unreached) {
        return inline(req, name, m, policy, required, holding, unreached, Map.of());
    }

    /**
     * As above, where {@code moved} names the chosen regions that did not confirm the manifest and the region that
     * stood in for each ({@link #standIn}); {@code required} already names the stand-ins. The acknowledgement says so.
     */
    static FileOp inline(long req, String name, Manifest m, String policy, List<String> required, Set<String> holding,
            List<String> unreached, Map<String, String> moved) {
        List<String> missing = missing(required, holding, unreached);
        if (missing.isEmpty()) {
            StringBuilder note = new StringBuilder();
            moved.forEach((gone, to) -> note.append("; ").append(gone).append(" did not confirm it: its copy is at ").append(to));
            return committed(req, m, unreached, note.toString()); // as a put of blocks says: scripts read it
        }
        return new Failed(req, FailureCode.OUTCOME_UNKNOWN, "upload of '" + name + "' failed: " + missing + ", chosen by"
                + " policy " + policy + ", did not confirm storing the manifest of this inline object (down, failed or"
                + " silent); version " + m.version().id() + " is stored at " + holding + " and may or may not become the"
                + " file's content (anti-entropy brings it to every region)");
    }

    /** The {@code required} regions that do not hold an inline version: not in {@code holding}, and among {@code unreached}. */
    static List<String> missing(List<String> required, Set<String> holding, List<String> unreached) {
        return required.stream().filter(r -> !holding.contains(r) && unreached.contains(r)).toList();
    }

    /**
     * Whether {@code candidate}, the region placement offers in place of a chosen region that did not confirm an inline
     * version (down, refusing connections, silent or failed), may stand in for it: it is not one of the regions the
     * policy already chose ({@code chosen}, earlier stand-ins included), and it holds the version ({@code holding}) or
     * confirmed the publication (a peer in {@code peers} not among {@code unreached}). The publication went to every
     * peer that was up, so a stand-in needs no second round trip.
     */
    static boolean standIn(String candidate, List<String> chosen, Set<String> holding, List<String> peers,
            List<String> unreached) {
        if (candidate == null || chosen.contains(candidate)) {
            return false;
        }
        return holding.contains(candidate) || (peers.contains(candidate) && !unreached.contains(candidate));
    }

    private static Committed committed(long req, Manifest m, List<String> unreached, String note) {
        return new Committed(req, m.version().id(), (unreached.isEmpty() ? "stored" : "stored; manifest not yet at "
                + unreached) + note);
    }
}
