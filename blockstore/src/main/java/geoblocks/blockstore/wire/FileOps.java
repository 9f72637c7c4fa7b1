package geoblocks.blockstore.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * The op records of the file protocol, found by walking {@link FileOp}'s sealed families: the one
 * list the codec's table and the node's handlers are checked against, so no list of ops is kept by
 * hand.
 */
public final class FileOps {
    private static final List<Class<? extends FileOp>> RECORDS = collect(FileOp.class, new ArrayList<>());

    private FileOps() {}

    /**
     * Whether {@code op} is an admin operation: a cluster change ({@code cluster} other than {@code show}), a
     * move or a purge. A node takes these only from the clients its init names (its own S3 gateway's
     * client, through which the admin HTTP API and its tokens reach the node), never from other clients.
     */
    public static boolean isAdmin(FileOp op) {
        return op instanceof ClientOp.ClusterReq c ? !c.action().equals("show")
                : op instanceof ClientOp.MoveReq || op instanceof ClientOp.PurgeReq;
    }

    /** Every op record, families in declaration order. */
    public static List<Class<? extends FileOp>> records() {
        return RECORDS;
    }

    /** The op records a node has a handler for ({@link FileOp.Handled}): every request, and manifest publications. */
    public static List<Class<? extends FileOp>> handled() {
        return RECORDS.stream().filter(FileOp.Handled.class::isAssignableFrom).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Class<? extends FileOp>> collect(Class<?> sealed, List<Class<? extends FileOp>> out) {
        for (Class<?> c : sealed.getPermittedSubclasses()) {
            if (c.isInterface()) {
                collect(c, out);
            } else if (!out.contains(c)) {
                out.add((Class<? extends FileOp>) c);
            }
        }
        return List.copyOf(out);
    }
}
