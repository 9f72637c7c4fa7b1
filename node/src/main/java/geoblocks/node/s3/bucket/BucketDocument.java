package geoblocks.node.s3.bucket;

import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A bucket sub-resource that is one document its owner puts, gets and deletes (a CORS or lifecycle configuration, a
 * policy, the default encryption, the PublicAccessBlock, the ownership controls, the object lock configuration): how
 * a PUT's body is read and checked, where the value is kept, and how a GET answers it. {@link BucketDocuments} serves
 * the three calls for every one of them, so they answer alike: a GET of none is {@code missing} ("bucket 'B' has no
 * {@code what}"), a PUT answers {@code putStatus}, a DELETE 204 (also when there was none).
 *
 * @param what the document's name in the answer to a GET of none
 * @param missing the error that answers a GET of none
 * @param parser reads a PUT's body (its S3 error answers the PUT before the bucket is looked up)
 * @param check refuses a value (null: a DELETE) given the bucket's record, or allows it (null)
 * @param render the body of a GET's answer
 * @param contentType a GET's Content-Type
 * @param storage where the value is kept
 * @param putStatus what a PUT answers (200, or 204 for PutBucketPolicy as S3)
 */
public record BucketDocument<T>(String what, S3Error missing, Parser<T> parser, Check<T> check, Function<T, byte[]> render,
        String contentType, Storage<T> storage, int putStatus) {
    public static final String XML = "application/xml";

    /** Reads a PUT's body for bucket {@code bucket}. */
    public interface Parser<T> {
        T parse(byte[] body, String bucket) throws S3Exception;
    }

    /** Whether {@code value} (null: a DELETE) may be set on bucket {@code b}: the refusal, or null. */
    public interface Check<T> {
        S3Exception refusal(BucketMeta b, T value);

        static <T> Check<T> none() {
            return (b, v) -> null;
        }
    }

    /** Where the value is kept: in the bucket's record or in a side record of its own. */
    public interface Storage<T> {
        /** The bucket's value, or null when it has none. */
        CompletableFuture<T> read(BucketMeta b);

        /** Sets the bucket's value, or removes it ({@code value} null); {@code body}: the PUT's body as sent (null: a DELETE). */
        CompletableFuture<?> write(BucketMeta b, T value, byte[] body);

        /** A storage of these two functions. */
        static <T> Storage<T> of(Function<BucketMeta, CompletableFuture<T>> read, Writer<T> write) {
            return new Storage<>() {
                @Override
                public CompletableFuture<T> read(BucketMeta b) {
                    return read.apply(b);
                }

                @Override
                public CompletableFuture<?> write(BucketMeta b, T value, byte[] body) {
                    return write.write(b, value, body);
                }
            };
        }
    }

    /** {@link Storage#write} as a function. */
    public interface Writer<T> {
        CompletableFuture<?> write(BucketMeta b, T value, byte[] body);
    }
}
