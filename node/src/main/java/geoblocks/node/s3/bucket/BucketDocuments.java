package geoblocks.node.s3.bucket;

import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.body.SmallBody;
import java.util.concurrent.CompletionException;

/**
 * The Get, Put and Delete calls of every {@link BucketDocument} (the bucket's owner may make them, checked before):
 * a GET reads the value, a PUT reads its body whole ({@link SmallBody}), parses it, looks the bucket up, checks and
 * writes the value, a DELETE writes none.
 */
public final class BucketDocuments {
    private final S3Buckets buckets;

    public BucketDocuments(S3Buckets buckets) {
        this.buckets = buckets;
    }

    /** Get...: the document, or its {@code missing} error when the bucket has none. */
    public <T> void get(S3Call call, BucketDocument<T> d) {
        buckets.find(call.bucket).thenCompose(b -> d.storage().read(b)).whenComplete((v, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
            } else if (v == null) {
                call.fail(d.missing(), "bucket '" + call.bucket + "' has no " + d.what());
            } else {
                call.ex.respond(200, d.contentType(), d.render().apply(v));
            }
        }));
    }

    /** Put...: the body parsed (a bad one is answered at once), checked against the bucket's record, written. */
    public <T> void put(S3Call call, BucketDocument<T> d) {
        call.ex.onBody(new SmallBody(call, body -> {
            T value;
            try {
                value = d.parser().parse(body, call.bucket);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            write(call, d, value, body, d.putStatus());
        }));
        call.ex.sendContinue();
    }

    /** Delete...: 204, whether or not there was one. */
    public <T> void delete(S3Call call, BucketDocument<T> d) {
        write(call, d, null, null, 204);
    }

    private <T> void write(S3Call call, BucketDocument<T> d, T value, byte[] body, int status) {
        buckets.find(call.bucket).thenCompose(b -> {
            S3Exception refused = d.check().refusal(b, value);
            if (refused != null) {
                throw new CompletionException(refused);
            }
            return d.storage().write(b, value, body);
        }).whenComplete(call.emptyWhenDone(status));
    }
}
