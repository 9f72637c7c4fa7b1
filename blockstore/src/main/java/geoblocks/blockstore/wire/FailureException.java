package geoblocks.blockstore.wire;

import java.util.Objects;

/**
 * A refusal with its {@link FailureCode}, thrown where a request is checked and caught where the
 * {@link FileOp.Failed} reply is sent. An IllegalArgumentException, so the checks that already catch
 * those keep working; the code travels with it instead of being guessed from the message.
 */
public final class FailureException extends IllegalArgumentException {
    private final FailureCode code;

    public FailureException(FailureCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    public FailureCode code() {
        return code;
    }
}
