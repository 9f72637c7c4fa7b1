package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.Claimed;
import geoblocks.blockstore.wire.PeerOp.CreateClaim;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * The coordinator's side of a conditional write: {@code put --if-absent}, and S3's If-Match /
 * If-None-Match on a put or a delete ({@link WriteCondition}). Once the upload's blocks are durable
 * (for a delete: at once), the name's owner region (core.Owners) decides, so that two conditional
 * writes never both pass on the same state: two creates of one name never both succeed, and two
 * compare-and-swaps from the same ETag never both win.
 * The owner checks the condition against its live version, stamps the version and stores it before
 * it answers (one WAN round trip, none when this node is the owner); this node then stores it too.
 * When the owner is down or cut off the write is refused, never decided here: a second decider
 * could let two writers win. When the owner's answer is lost (it went silent after the claim was
 * sent) the outcome is unknown, and the message says so.
 */
final class CreateIfAbsent {
    private CreateIfAbsent() {}

    /** Why a conditional write cannot be decided now: the owner is not reachable. */
    static String ownerDown(Node node, String name, String owner, WriteCondition condition) {
        return ownerDown(name, owner, condition, "is down or cut off from " + node.region());
    }

    /** As above, with {@code state} saying what is known of the owner ("is down (...)"). */
    static String ownerDown(String name, String owner, WriteCondition condition, String state) {
        if (condition.absentOnly()) {
            return "cannot create '" + name + "' if absent now: its owner region " + owner + " " + state
                    + ", and only the owner decides creates (so two never both succeed); retry when "
                    + owner + " is back, or put without --if-absent (the newest version wins)";
        }
        return "cannot decide the conditional write of '" + name + "' (" + condition + ") now: its owner region "
                + owner + " " + state + ", and only the owner decides conditional writes"
                + " (so two never both pass); retry when " + owner + " is back";
    }

    static String exists(String name, String owner) {
        return "file '" + name + "' already exists (decided by its owner region " + owner
                + "); put without --if-absent to add a newer version";
    }

    /**
     * Why the owner refused: {@link FailureCode#EXISTS} (a create found the name taken),
     * {@link FailureCode#NOT_FOUND} (If-Match and no live version) or
     * {@link FailureCode#PRECONDITION_FAILED} (the live version's tag does not meet the condition).
     */
    static Failure refusal(String name, String owner, WriteCondition condition, WriteCondition.Outcome outcome) {
        return switch (outcome) {
            case EXISTS -> new Failure(FailureCode.EXISTS, exists(name, owner));
            case NOT_FOUND -> new Failure(FailureCode.NOT_FOUND, "precondition failed: '" + name + "' has no live version ("
                    + condition + "; decided by its owner region " + owner + ")");
            case MISMATCH -> new Failure(FailureCode.PRECONDITION_FAILED, "precondition failed: the live version of '" + name
                    + "' does not meet " + condition + " (decided by its owner region " + owner + ")");
            case PASSED -> throw new IllegalArgumentException("a write that passed its condition is not refused");
        };
    }

    /**
     * Asks the owner to store {@code draft} if the name's live version meets {@code condition}; calls
     * {@code created} with the stored version or {@code refused} with why not: {@link #refusal}'s codes,
     * {@link FailureCode#UNAVAILABLE} (the owner is down or not ready to decide),
     * {@link FailureCode#OUTCOME_UNKNOWN} (its answer was lost) or the owner's own code.
     */
    static void claim(Node node, Manifest draft, WriteCondition condition, Consumer<Manifest> created,
            Consumer<Failure> refused) {
        String owner = node.ownerOf(draft.name());
        if (owner.equals(node.region())) {
            String notReady = node.notReadyToDecide(draft.name());
            if (notReady != null) {
                refused.accept(new Failure(FailureCode.UNAVAILABLE, notReady));
                return;
            }
            try {
                Versions.Claim m = node.versions().claim(draft, condition);
                if (m.stored() != null) {
                    created.accept(m.stored());
                } else {
                    refused.accept(refusal(draft.name(), owner, condition, m.outcome()));
                }
            } catch (IOException e) {
                refused.accept(Failure.ofStorage(e).prefixed("storing the new version failed: "));
            }
            return;
        }
        if (!node.rtt().isUp(owner)) {
            refused.accept(new Failure(FailureCode.UNAVAILABLE, ownerDown(node, draft.name(), owner, condition)));
            return;
        }
        NetAddress addr = node.addressOf(owner);
        byte[] bytes = ManifestCodec.encode(draft);
        long req = node.expect(addr, new Pending.Waiter() {
            @Override
            public boolean onReply(FileOp op) {
                if (op instanceof Claimed c) {
                    granted(node, draft, owner, c, created, refused);
                    return true;
                }
                if (op instanceof Failed f) {
                    refused.accept(Failure.of(f));
                    return true;
                }
                return false;
            }

            @Override
            public void onTimeout(String why) {
                refused.accept(new Failure(FailureCode.OUTCOME_UNKNOWN, "no answer from " + owner + ", the owner of '"
                        + draft.name() + "' (" + why + "): the write may or may not have happened there; `versions "
                        + draft.name() + "` will tell"));
            }

            /** The claim never left (the owner refuses connections): nothing was decided, as when the owner is known down. */
            @Override
            public void onUnsent(String why) {
                refused.accept(new Failure(FailureCode.UNAVAILABLE, ownerDown(draft.name(), owner, condition,
                        "is down (" + why + ")")));
            }
        });
        Assembly.split(bytes, node.settings().chunkBytes(), (off, part) ->
                node.send(addr, new CreateClaim(req, off, bytes.length, part, condition)));
    }

    private static void granted(Node node, Manifest draft, String owner, Claimed c, Consumer<Manifest> created,
            Consumer<Failure> refused) {
        Manifest m;
        try {
            if (!c.region().equals(owner)) {
                throw new IllegalArgumentException("stamped by " + c.region() + ", not by the owner " + owner);
            }
            m = draft.withVersion(new Version(c.clock(), c.region()));
        } catch (IllegalArgumentException e) {
            refused.accept(new Failure(FailureCode.INTERNAL, "the owner " + owner + " answered with a bad version: "
                    + e.getMessage()));
            return;
        }
        try {
            node.versions().merge(ManifestHistory.of(m));
        } catch (IOException e) {
            Failure f = Failure.ofStorage(e);
            refused.accept(new Failure(f.code(), "the owner " + owner + " created version " + m.version()
                    + " but storing it here failed: " + f.text() + " (anti-entropy will bring it)"));
            return;
        }
        created.accept(m);
    }
}
