package geoblocks.node;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.io.IOException;

/** A node (or the client component) failed a request: the failure's code, for callers to act on, and its text. */
public final class NodeFailure extends IOException {
    private final FailureCode code;

    public NodeFailure(Failure failure) {
        super(failure.text());
        this.code = failure.code();
    }

    public FailureCode code() {
        return code;
    }

    /** The code when {@code e} is a NodeFailure, else null (a local failure: I/O, interruption). */
    public static FailureCode codeOf(Throwable e) {
        return e instanceof NodeFailure f ? f.code : null;
    }
}
