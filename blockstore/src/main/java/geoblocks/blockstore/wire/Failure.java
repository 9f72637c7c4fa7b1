package geoblocks.blockstore.wire;

/**
 * A failure on its way through a node's parts before it becomes a {@link FileOp.Failed} reply: its
 * code and its text. A part that wraps the text of a failure it relays keeps its code
 * ({@link #prefixed}).
 */
public record Failure(FailureCode code, String text) {
    public Failure {
        java.util.Objects.requireNonNull(code, "code");
        java.util.Objects.requireNonNull(text, "text");
    }

    /** The failure a {@link FileOp.Failed} reply carries. */
    public static Failure of(FileOp.Failed f) {
        return new Failure(f.code(), f.error());
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
