package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.ClientOp.DeleteReq;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Failed;

/**
 * While the metadata engine's syncs fail, a client's new write (a put or create, {@link PutBegin}; a delete,
 * {@link DeleteReq}) is refused at once as {@link FailureCode#UNAVAILABLE} (S3 503) rather than taken and held
 * until a sync works: the writes already taken stay held (nothing unsynced is revealed), reads go on. Pure.
 */
final class SyncFaultRefusal {
    private SyncFaultRefusal() {}

    /** The answer to client op {@code op} while {@code fault} (null: the syncs work), or null to take it. */
    static Failed of(FileOp op, String fault) {
        if (fault == null || !(op instanceof PutBegin || op instanceof DeleteReq)) {
            return null;
        }
        return new Failed(op.req(), FailureCode.UNAVAILABLE, "this node refuses writes while its metadata disk fails ("
                + fault + "); reads go on, and writes are taken again once a sync works");
    }
}
