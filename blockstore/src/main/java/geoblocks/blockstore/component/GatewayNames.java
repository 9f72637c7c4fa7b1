package geoblocks.blockstore.component;

/**
 * The file names a node's S3 gateway keeps, which no client authenticated by an access key may reach by file
 * name (S3's bytes, records and ACLs go only through S3): the node passes its gateway's rule in. {@link #DOTTED}
 * is the part every node has, the names that start with a dot ({@code .s3-buckets/}, {@code .s3-keys/},
 * {@code .admin/}, ...).
 */
public interface GatewayNames {
    /** Only the dotted names (no gateway objects): a node without S3, and the tests of the doors. */
    GatewayNames DOTTED = new GatewayNames() {
        @Override
        public boolean holds(String name) {
            return name.startsWith(".");
        }

        @Override
        public boolean mayHoldUnder(String prefix) {
            return prefix.isEmpty() || prefix.startsWith(".");
        }
    };

    /** Whether {@code name} is, or may be, one the gateway keeps. */
    boolean holds(String name);

    /** Whether some name that starts with {@code prefix} may be one the gateway keeps. */
    boolean mayHoldUnder(String prefix);
}
