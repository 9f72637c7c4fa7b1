package geoblocks.node.s3.bucket;

import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.body.SmallRecord;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Reading a bucket's setting kept in a record of its own (CORS, lifecycle, policy: {@code .s3-KIND/BUCKET},
 * stored on every region): null when there is none, or when the record is older than the bucket (a
 * previous bucket's of the same name).
 */
public final class SideRecords {
    private SideRecords() {}

    /** Parses a record's bytes; a bad record is the S3 error it throws. */
    public interface Parser<T> {
        T parse(byte[] bytes) throws S3Exception;
    }

    /** The setting in {@code file} parsed, or null (none, or older than {@code sinceMillis}); {@code what} names it in errors. */
    public static <T> CompletableFuture<T> read(NodeStore store, String file, long sinceMillis, int max, String what, Parser<T> parser) {
        SmallRecord sink = new SmallRecord(max, what);
        return store.get(file, "", sink).handle((m, t) -> {
            if (t != null) {
                Throwable c = NodeStore.cause(t);
                if (c instanceof NodeStore.StoreException s && s.notFound()) {
                    return null;
                }
                throw new CompletionException(c);
            }
            if (m.createdMillis() < sinceMillis) {
                return null;
            }
            try {
                return parser.parse(sink.bytes());
            } catch (S3Exception e) {
                throw new CompletionException(e);
            }
        });
    }

    /** Deletes {@code file}; a record that is not there is no error. */
    public static CompletableFuture<Void> delete(NodeStore store, String file) {
        return store.delete(file).handle((w, t) -> {
            Throwable c = t == null ? null : NodeStore.cause(t);
            if (c != null && !(c instanceof NodeStore.StoreException s && s.notFound())) {
                throw new CompletionException(c);
            }
            return null;
        });
    }
}
