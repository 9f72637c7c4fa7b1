package geoblocks.node.s3.object;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * S3 entity tags: a single-part object's ETag is the hex MD5 of its bytes; a multipart object's is
 * the hex MD5 of the concatenated binary MD5s of its parts, then {@code -} and the part count. On the
 * wire they are quoted.
 */
public final class ETags {
    private static final HexFormat HEX = HexFormat.of();

    private ETags() {}

    public static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String hex(byte[] digest) {
        return HEX.formatHex(digest);
    }

    /** The ETag of an object made of parts whose ETags (hex MD5s, quoted or not) are {@code partEtags}, in order. */
    public static String multipart(List<String> partEtags) {
        MessageDigest all = md5();
        for (String e : partEtags) {
            all.update(HEX.parseHex(unquote(e)));
        }
        return hex(all.digest()) + "-" + partEtags.size();
    }

    public static String quote(String etag) {
        return "\"" + etag + "\"";
    }

    public static String unquote(String etag) {
        String s = etag.trim();
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }
}
