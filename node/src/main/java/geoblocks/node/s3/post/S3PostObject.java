package geoblocks.node.s3.post;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.node.http.Exchange;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.access.BucketPolicy;
import geoblocks.node.s3.access.S3Access;
import geoblocks.node.s3.access.S3Acls;
import geoblocks.node.s3.access.S3Authorizer;
import geoblocks.node.s3.access.S3Policies;
import geoblocks.node.s3.auth.S3KeyStore;
import geoblocks.node.s3.body.SpoolSpace;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.encryption.SseRequest;
import geoblocks.node.s3.object.ETags;
import geoblocks.node.s3.object.ObjectHeaders;
import geoblocks.node.s3.object.S3Objects;
import geoblocks.node.s3.xml.S3Xml;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;

/**
 * POST object (browser-based upload, docs/s3.md): a multipart/form-data POST to a bucket's URL. The
 * form is read as it streams ({@link FormData}); the file part goes straight to a spool file. Then the
 * policy's signature (V2 {@code AWSAccessKeyId}/{@code signature}, or V4 {@code x-amz-credential}/
 * {@code x-amz-signature}) and conditions ({@link PostPolicy}) are checked, then what a PutObject of
 * the key would need: the bucket's policy ({@link S3Policies}: a Deny refuses, the owner included; an
 * Allow grants; the form's {@code x-amz-*} fields are its condition keys), else the owner or the bucket
 * ACL's WRITE ({@link S3Access}; without a signed form the request is anonymous). The object is stored
 * as PutObject stores it, encrypted as the form's SSE fields or else the bucket's default encryption say.
 */
public final class S3PostObject {
    static final int MAX_FIELD = 20 << 10;
    static final int MAX_FIELDS = 64;
    private final S3Settings settings;
    private final S3Buckets buckets;
    private final S3Objects objects;
    private final S3KeyStore keys;
    private final S3Acls acls;
    private final S3Policies policies;
    private final S3Encryption encryption;
    private final LongSupplier clock;

    private final SpoolSpace space;

    public S3PostObject(S3Settings settings, S3Buckets buckets, S3Objects objects, S3KeyStore keys, S3Acls acls,
            S3Policies policies, S3Encryption encryption, LongSupplier clock, SpoolSpace space) {
        this.space = space;
        this.settings = settings;
        this.buckets = buckets;
        this.objects = objects;
        this.keys = keys;
        this.acls = acls;
        this.policies = policies;
        this.encryption = encryption;
        this.clock = clock;
    }

    /** Reads the form; its end continues in {@link #received}. */
    public void post(S3Call call) {
        // the form's file goes to the spool: admitted for the whole body (it bounds the file), or the largest object
        long announced = HttpUtil.getContentLength(call.ex.request(), -1L);
        SpoolSpace.Reservation room;
        try {
            room = space.admit(announced < 0 ? settings.maxObjectSize() : Math.min(announced, settings.maxObjectSize()));
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        Form form = new Form(call, room);
        FormData parser;
        try {
            parser = new FormData(FormData.boundary(call.headers().get("Content-Type")), MAX_FIELD, MAX_FIELDS, form);
        } catch (IllegalArgumentException e) {
            room.release();
            call.fail(S3Error.INVALID_ARGUMENT, "POST object: " + e.getMessage());
            return;
        }
        call.ex.onBody(new Exchange.BodySink() {
            private boolean failed;

            @Override
            public void onChunk(ByteBuf chunk) {
                if (failed) {
                    return;
                }
                try {
                    parser.feed(chunk.nioBuffer());
                } catch (Exception e) {
                    failed = true;
                    form.discard();
                    call.fail(S3Error.INVALID_ARGUMENT, "POST object: the form is malformed: " + e.getMessage());
                }
            }

            @Override
            public void onEnd() {
                if (failed) {
                    return;
                }
                try {
                    parser.finish();
                    form.close();
                    room.release(); // the file is on disk: counted there
                } catch (Exception e) {
                    form.discard();
                    call.fail(S3Error.INVALID_ARGUMENT, "POST object: the form is malformed: " + e.getMessage());
                    return;
                }
                received(call, form);
            }

            @Override
            public void onAbort() {
                form.discard();
            }
        });
        call.ex.sendContinue();
    }

    /** The form has been read: checks it, then stores the file. */
    private void received(S3Call call, Form form) {
        if (!form.fileSeen) {
            form.discard();
            call.fail(S3Error.INVALID_ARGUMENT, "POST requires exactly one file upload per request (a field named 'file')");
            return;
        }
        String key = form.fields.get("key");
        if (key == null || key.isEmpty()) {
            form.discard();
            call.fail(S3Error.INVALID_ARGUMENT, "Bucket POST must contain a field named 'key'");
            return;
        }
        key = key.replace("${filename}", form.filename == null ? "" : form.filename);
        String finalKey = key;
        String accessKey;
        PostPolicy policy = null;
        try {
            String policyField = form.fields.get("policy");
            accessKey = policyField == null ? null : credential(form.fields);
            if (policyField != null) {
                policy = PostPolicy.parse(policyField);
            }
        } catch (S3Exception e) {
            form.discard();
            call.fail(e);
            return;
        }
        PostPolicy checked = policy;
        CompletableFuture<Void> keyLoaded = accessKey == null || keys.known(accessKey)
                ? CompletableFuture.completedFuture(null) : keys.load(accessKey);
        keyLoaded.thenCompose(x -> {
            try {
                if (checked != null) {
                    verify(form.fields, accessKey);
                    Map<String, String> withBucket = new TreeMap<>(form.fields);
                    withBucket.put("bucket", call.bucket);
                    withBucket.put("key", finalKey); // the conditions see the key with ${filename} replaced
                    checked.check(withBucket, form.size, clock.getAsLong());
                }
                S3Exception bad = S3Names.keyProblem(call.bucket, finalKey); // after the signature: 403 before 400
                if (bad != null) {
                    throw bad;
                }
            } catch (S3Exception e) {
                return CompletableFuture.failedFuture(e);
            }
            return buckets.find(call.bucket);
        }).thenCompose(b -> {
            BucketMeta bucket = (BucketMeta) b;
            S3Call put = new S3Call(call.ex, call.bucket, finalKey, Map.of(), call.requestId);
            put.requester = accessKey;
            return permitted(call, put, bucket, form.fields).thenCompose(x -> store(put, bucket, form));
        }).whenComplete((r, t) -> {
            form.discard();
            call.later(() -> {
                if (t != null) {
                    call.fail(NodeStore.cause(t));
                    return;
                }
                S3Encryption.answer(call, r.plan() == null ? null : r.plan().params(), null);
                answer(call, r.bucket(), r.written(), finalKey, r.etag(), form.fields);
            });
        });
    }

    /**
     * Whether {@code put} (the form's object write, by its signer or anonymous) may write: the bucket's policy on
     * {@code s3:PutObject} of the key first (a Deny refuses whoever asks; an Allow grants), else the owner, else
     * the bucket ACL's WRITE; AccessDenied otherwise. The form's {@code x-amz-*} and {@code acl} fields are the
     * policy's request condition keys ({@code s3:x-amz-server-side-encryption}, {@code s3:x-amz-acl}, ...).
     */
    private CompletableFuture<Void> permitted(S3Call call, S3Call put, BucketMeta bucket,
            Map<String, String> fields) {
        String owner = acls.owner(bucket);
        Map<String, String> conditions = new TreeMap<>();
        fields.forEach((k, v) -> {
            if (k.startsWith("x-amz-")) {
                conditions.put("s3:" + k, v);
            }
        });
        if (fields.containsKey("acl")) {
            conditions.put("s3:x-amz-acl", fields.get("acl"));
        }
        String who = put.requester == null ? "an anonymous upload" : "key " + put.requester;
        return policies.decide(call, bucket, owner, "s3:PutObject", S3Authorizer.arn(bucket.name(), put.key),
                put.key, false, conditions).thenApply(d -> {
                    if (d == BucketPolicy.Decision.DENY) {
                        throw new CompletionException(new S3Exception(S3Error.ACCESS_DENIED,
                                "POST object: the bucket's policy denies s3:PutObject to " + who));
                    }
                    boolean ok = d == BucketPolicy.Decision.ALLOW || (put.requester != null && put.requester.equals(owner))
                            || S3Access.allowed(put.requester, owner, bucket.access().acl(), S3Access.Perm.WRITE,
                                    bucket.access().block());
                    if (!ok) {
                        throw new CompletionException(new S3Exception(S3Error.ACCESS_DENIED,
                                "POST object: " + who + " may not write to bucket '" + bucket.name() + "'"));
                    }
                    return null;
                });
    }

    /** A stored upload: its bucket, what the node wrote, its ETag and how it was encrypted (null: not). */
    private record Stored(BucketMeta bucket, ClientPort.Written written, String etag,
            S3Encryption.Plan plan) {}

    /** Stores the form's file as {@code put}'s object, encrypted as its SSE fields or the bucket's default say. */
    private CompletableFuture<Stored> store(S3Call put, BucketMeta bucket, Form form) {
        ObjectHeaders kept;
        S3Encryption.Plan plan;
        try {
            kept = ObjectHeaders.of(form.fields.keySet(), form.fields::get);
            plan = encryption.plan(SseRequest.write(form.fields::get), bucket);
        } catch (S3Exception e) {
            return CompletableFuture.failedFuture(e);
        }
        if (plan != null && plan.customer()) {
            return CompletableFuture.failedFuture(new S3Exception(S3Error.NOT_IMPLEMENTED,
                    "POST object with a customer-provided key (SSE-C) is not supported"));
        }
        String type = form.fields.getOrDefault("content-type", "binary/octet-stream");
        String plainTag = ETags.hex(form.md5.digest());
        String etag = plan == null ? plainTag : plan.etag(plainTag);
        return objects.headers().write(kept).thenCompose(extra -> {
            Map<String, String> meta = new HashMap<>(extra);
            return plan == null
                    ? objects.store(put, bucket, form.file, null, etag, type, WriteCondition.NONE, meta)
                    : objects.storeEncrypted(put, bucket, plan, form.file, null, etag, type,
                            WriteCondition.NONE, meta);
        }).thenApply(w -> new Stored(bucket, w, etag, plan));
    }

    /** The access key the form names (V2 or V4); InvalidArgument when a policy comes without a signature. */
    private static String credential(Map<String, String> f) throws S3Exception {
        String cred = f.get("x-amz-credential");
        if (cred != null && f.get("x-amz-signature") != null) {
            int slash = cred.indexOf('/');
            return slash < 0 ? cred : cred.substring(0, slash);
        }
        String id = f.get("awsaccesskeyid");
        if (id == null || f.get("signature") == null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "a POST with a policy needs AWSAccessKeyId and signature"
                    + " (or x-amz-credential and x-amz-signature) fields");
        }
        return id;
    }

    /** Checks the form's signature of its policy with the key's secret. */
    private void verify(Map<String, String> f, String accessKey) throws S3Exception {
        String secret = keys.secret(accessKey);
        if (secret == null) {
            throw new S3Exception(S3Error.INVALID_ACCESS_KEY_ID, "no access key '" + accessKey + "'");
        }
        String policy = f.get("policy");
        boolean ok;
        if (f.get("x-amz-signature") != null) {
            String[] parts = f.getOrDefault("x-amz-credential", "").split("/");
            if (parts.length != 5 || !parts[3].equals("s3") || !parts[4].equals("aws4_request")) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-credential must be key/date/region/s3/aws4_request");
            }
            ok = PostPolicy.same(PostPolicy.signV4(secret, parts[1], parts[2], policy), f.get("x-amz-signature").toLowerCase(Locale.ROOT));
        } else {
            ok = PostPolicy.same(PostPolicy.signV2(secret, policy), f.get("signature"));
        }
        if (!ok) {
            throw new S3Exception(S3Error.SIGNATURE_DOES_NOT_MATCH, "the form's signature does not match its policy");
        }
    }

    private void answer(S3Call call, BucketMeta bucket, ClientPort.Written w, String key,
            String etag, Map<String, String> f) {
        call.ex.header("ETag", ETags.quote(etag));
        S3Objects.written(call, bucket, w);
        String redirect = f.get("success_action_redirect");
        if (redirect == null) {
            redirect = f.get("redirect");
        }
        if (redirect != null && !redirect.isEmpty()) {
            String q = "bucket=" + URLEncoder.encode(call.bucket, StandardCharsets.UTF_8) + "&key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)
                    + "&etag=" + URLEncoder.encode(ETags.quote(etag), StandardCharsets.UTF_8);
            call.ex.header("Location", redirect + (redirect.contains("?") ? "&" : "?") + q);
            call.empty(303);
            return;
        }
        String status = f.getOrDefault("success_action_status", "204");
        if (status.equals("200")) {
            call.empty(200);
        } else if (status.equals("201")) {
            String location = "/" + call.bucket + "/" + key;
            String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<PostResponse><Location>" + S3Xml.escape(location)
                    + "</Location><Bucket>" + S3Xml.escape(call.bucket) + "</Bucket><Key>" + S3Xml.escape(key)
                    + "</Key><ETag>" + S3Xml.escape(ETags.quote(etag)) + "</ETag></PostResponse>";
            call.xml(201, xml.getBytes(StandardCharsets.UTF_8));
        } else {
            call.empty(204);
        }
    }

    /** The form as it is read: fields by lower-case name, the file part in a spool file. */
    private final class Form implements FormData.Listener {
        final S3Call call;
        final Map<String, String> fields = new TreeMap<>();
        final MessageDigest md5;
        Path file;
        FileChannel out;
        String filename;
        long size;
        boolean fileSeen;

        final SpoolSpace.Reservation room;

        Form(S3Call call, SpoolSpace.Reservation room) {
            this.room = room;
            this.call = call;
            try {
                md5 = MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void field(String name, String value) {
            fields.putIfAbsent(name.toLowerCase(Locale.ROOT), value);
        }

        @Override
        public void fileStart(String name, String contentType) throws IOException {
            fileSeen = true;
            filename = name;
            file = settings.spoolFile("post");
            out = FileChannel.open(file, StandardOpenOption.WRITE);
        }

        @Override
        public void fileBytes(ByteBuffer bytes) throws IOException {
            size += bytes.remaining();
            if (size > settings.maxObjectSize()) {
                throw new IOException("the file exceeds the gateway's limit of " + settings.maxObjectSize() + " bytes");
            }
            md5.update(bytes.duplicate());
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
        }

        @Override
        public void fileEnd() throws IOException {
            out.close();
            out = null;
        }

        void close() throws IOException {
            if (out != null) {
                out.close();
                out = null;
            }
        }

        void discard() {
            room.release();
            try {
                close();
                if (file != null) {
                    Files.deleteIfExists(file);
                }
            } catch (IOException e) {
                // a spool file left behind is removed when the node restarts (S3Gateway.clearSpool)
            }
        }
    }
}
