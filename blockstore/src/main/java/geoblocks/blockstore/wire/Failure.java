package geoblocks.blockstore.wire;

import java.io.IOException;
import java.util.Objects;

/**
 * A failure on its way through a node's parts before it becomes a {@link FileOp.Failed} reply: its
 * code and its text. A part that wraps the text of a failure it relays keeps its code
 * ({@link #prefixed}).
 */
public record Failure(FailureCode code, String text) {
    public Failure {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(text, "text");
    }

    /** The failure a {@link FileOp.Failed} reply carries. */
    public static Failure of(FileOp.Failed f) {
        return new Failure(f.code(), f.error());
    }

    /**
     * {@code e} as a failure: its code by its type ({@link FailureCode#of}), else {@code otherwise}; its
     * message (or, without one, its type) as the text.
     */
    public static Failure of(Throwable e, FailureCode otherwise) {
        return new Failure(FailureCode.of(e, otherwise), e.getMessage() == null ? e.toString() : e.getMessage());
    }

    /**
     * What a block storage or metadata engine's exception is, the one place that classifies them: a full
     * disk INSUFFICIENT_STORAGE, a missing block BLOCK_MISSING, a corrupt block BLOCK_CORRUPT, any other
     * I/O error IO_ERROR, anything else (a bug) INTERNAL.
     */
    public static Failure ofStorage(Exception e) {
        return of(e, e instanceof IOException ? FailureCode.IO_ERROR : FailureCode.INTERNAL);
    }

    /** The same failure with {@code prefix} before its text. */
    public Failure prefixed(String prefix) {
        return new Failure(code, prefix + text);
    }

    /** The reply to request {@code req} that reports this failure. */
    public FileOp.Failed reply(long req) {
        return new FileOp.Failed(req, code, text);
    }
}
