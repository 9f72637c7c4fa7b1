package geoblocks.node;

import geoblocks.blockstore.wire.FailureCode;

/**
 * The one table from a node's failure codes to the command line's exit codes (docs/usage.md lists
 * it): scripts branch on the exit code, never on the message. 0 is success, 1 a failure without a
 * more specific code (INTERNAL, or a local one: a file that cannot be read), 2 a usage error.
 */
public final class ExitCodes {
    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int USAGE = 2;

    private ExitCodes() {}

    /** The exit code of a command that failed with {@code code}. */
    public static int of(FailureCode code) {
        return switch (code) {
            case INTERNAL -> FAILURE;
            case NOT_FOUND -> 3;
            case EXISTS -> 4;
            case NEWER_EXISTS -> 5;
            case BUSY -> 6;
            case UNAVAILABLE -> 7;
            case INVALID -> 8;
            case OUTCOME_UNKNOWN -> 9;
            case PRECONDITION_FAILED -> 10;
            case FORBIDDEN -> 11;
            case UNSUPPORTED -> 12;
            case INSUFFICIENT_STORAGE -> 13;
            case BLOCK_MISSING -> 14;
            case BLOCK_CORRUPT -> 15;
            case IO_ERROR -> 16;
        };
    }

    /** The exit code of a command that threw {@code e}: its node failure code's, else {@link #FAILURE}. */
    public static int of(Throwable e) {
        FailureCode code = NodeFailure.codeOf(e);
        return code == null ? FAILURE : of(code);
    }
}
