package geoblocks.node.http;

import java.util.regex.Pattern;

/**
 * What may be written to a log of a request: its URI with the values of presigned-URL signatures and
 * session tokens replaced (a logged presigned URL would otherwise be a working credential for the rest
 * of its life), and a secret shown only as whether it is set.
 */
public final class Redact {
    /** Query parameters whose values are credentials: SigV4's and SigV2's signatures, a session token. */
    private static final Pattern SECRET_PARAMS = Pattern.compile(
            "(?i)([?&](?:X-Amz-Signature|Signature|X-Amz-Security-Token|x-amz-signature)=)[^&#]*");
    public static final String MASK = "REDACTED";

    private Redact() {}

    /** {@code uri} with every credential parameter's value replaced by {@value #MASK}. */
    public static String uri(String uri) {
        return uri == null ? null : SECRET_PARAMS.matcher(uri).replaceAll("$1" + MASK);
    }

    /** A secret for a {@code toString}: whether it is set, never its value. */
    public static String secret(String s) {
        return s == null || s.isEmpty() ? "(none)" : "(set)";
    }
}
