package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class S3RouterTest {
    /** Every operation and one request that is it ("METHOD LEVEL?QUERY", LEVEL: / the service, b a bucket, b/k an object). */
    private static final Map<String, S3Operation> SERVED = new LinkedHashMap<>();

    static {
        SERVED.put("GET /", S3Operation.ListBuckets);
        SERVED.put("HEAD /", S3Operation.ListBuckets);
        SERVED.put("OPTIONS b/k", S3Operation.PreflightCors);
        SERVED.put("OPTIONS /", S3Operation.PreflightCors);
        SERVED.put("PUT b", S3Operation.CreateBucket);
        SERVED.put("HEAD b", S3Operation.HeadBucket);
        SERVED.put("HEAD b?location", S3Operation.HeadBucket);
        SERVED.put("DELETE b", S3Operation.DeleteBucket);
        SERVED.put("GET b", S3Operation.ListObjects);
        SERVED.put("GET b?prefix=a&marker=x", S3Operation.ListObjects);
        SERVED.put("GET b?list-type=1", S3Operation.ListObjects);
        SERVED.put("GET b?list-type=2&prefix=a", S3Operation.ListObjectsV2);
        SERVED.put("GET b?anything-a-reader-adds", S3Operation.ListObjects);
        SERVED.put("GET b?versions", S3Operation.ListObjectVersions);
        SERVED.put("GET b?uploads", S3Operation.ListMultipartUploads);
        SERVED.put("GET b?location", S3Operation.GetBucketLocation);
        SERVED.put("POST b?delete", S3Operation.DeleteObjects);
        SERVED.put("GET b?versioning", S3Operation.GetBucketVersioning);
        SERVED.put("PUT b?versioning", S3Operation.PutBucketVersioning);
        SERVED.put("GET b?acl", S3Operation.GetBucketAcl);
        SERVED.put("PUT b?acl", S3Operation.PutBucketAcl);
        SERVED.put("GET b?tagging", S3Operation.GetBucketTagging);
        SERVED.put("PUT b?tagging", S3Operation.PutBucketTagging);
        SERVED.put("DELETE b?tagging", S3Operation.DeleteBucketTagging);
        SERVED.put("GET b?lifecycle", S3Operation.GetBucketLifecycleConfiguration);
        SERVED.put("PUT b?lifecycle", S3Operation.PutBucketLifecycleConfiguration);
        SERVED.put("DELETE b?lifecycle", S3Operation.DeleteBucketLifecycle);
        SERVED.put("GET b?encryption", S3Operation.GetBucketEncryption);
        SERVED.put("PUT b?encryption", S3Operation.PutBucketEncryption);
        SERVED.put("DELETE b?encryption", S3Operation.DeleteBucketEncryption);
        SERVED.put("GET b?cors", S3Operation.GetBucketCors);
        SERVED.put("PUT b?cors", S3Operation.PutBucketCors);
        SERVED.put("DELETE b?cors", S3Operation.DeleteBucketCors);
        SERVED.put("GET b?publicAccessBlock", S3Operation.GetPublicAccessBlock);
        SERVED.put("PUT b?publicAccessBlock", S3Operation.PutPublicAccessBlock);
        SERVED.put("DELETE b?publicAccessBlock", S3Operation.DeletePublicAccessBlock);
        SERVED.put("GET b?policy", S3Operation.GetBucketPolicy);
        SERVED.put("PUT b?policy", S3Operation.PutBucketPolicy);
        SERVED.put("DELETE b?policy", S3Operation.DeleteBucketPolicy);
        SERVED.put("GET b?policyStatus", S3Operation.GetBucketPolicyStatus);
        SERVED.put("GET b?policyStatus&policy", S3Operation.GetBucketPolicyStatus);
        SERVED.put("GET b?object-lock", S3Operation.GetObjectLockConfiguration);
        SERVED.put("PUT b?object-lock", S3Operation.PutObjectLockConfiguration);
        SERVED.put("GET b?ownershipControls", S3Operation.GetBucketOwnershipControls);
        SERVED.put("PUT b?ownershipControls", S3Operation.PutBucketOwnershipControls);
        SERVED.put("DELETE b?ownershipControls", S3Operation.DeleteBucketOwnershipControls);
        SERVED.put("GET b/k", S3Operation.GetObject);
        SERVED.put("GET b/k?versionId=v&partNumber=1", S3Operation.GetObject);
        SERVED.put("GET b/k?attributes-not&whatever", S3Operation.GetObject);
        SERVED.put("HEAD b/k", S3Operation.HeadObject);
        SERVED.put("HEAD b/k?attributes", S3Operation.HeadObject);
        SERVED.put("PUT b/k", S3Operation.PutObject);
        SERVED.put("PUT b/k?x-id=PutObject&X-Amz-Signature=s", S3Operation.PutObject);
        SERVED.put("PUT b/k?AWSAccessKeyId=a&Signature=s&Expires=1", S3Operation.PutObject);
        SERVED.put("PUT b/k copy", S3Operation.CopyObject);
        SERVED.put("DELETE b/k", S3Operation.DeleteObject);
        SERVED.put("DELETE b/k?versionId=v", S3Operation.DeleteObject);
        SERVED.put("GET b/k?attributes", S3Operation.GetObjectAttributes);
        SERVED.put("GET b/k?acl", S3Operation.GetObjectAcl);
        SERVED.put("PUT b/k?acl", S3Operation.PutObjectAcl);
        SERVED.put("GET b/k?tagging", S3Operation.GetObjectTagging);
        SERVED.put("PUT b/k?tagging", S3Operation.PutObjectTagging);
        SERVED.put("DELETE b/k?tagging&versionId=v", S3Operation.DeleteObjectTagging);
        SERVED.put("GET b/k?retention", S3Operation.GetObjectRetention);
        SERVED.put("PUT b/k?retention", S3Operation.PutObjectRetention);
        SERVED.put("GET b/k?legal-hold", S3Operation.GetObjectLegalHold);
        SERVED.put("PUT b/k?legal-hold", S3Operation.PutObjectLegalHold);
        SERVED.put("POST b/k?uploads", S3Operation.CreateMultipartUpload);
        SERVED.put("PUT b/k?partNumber=1&uploadId=u", S3Operation.UploadPart);
        SERVED.put("PUT b/k?partNumber=1&uploadId=u copy", S3Operation.UploadPartCopy);
        SERVED.put("POST b/k?uploadId=u", S3Operation.CompleteMultipartUpload);
        SERVED.put("DELETE b/k?uploadId=u", S3Operation.AbortMultipartUpload);
        SERVED.put("GET b/k?uploadId=u", S3Operation.ListParts);
        SERVED.put("HEAD b/k?uploadId=u", S3Operation.ListParts);
        SERVED.put("POST b form", S3Operation.PostObject);
    }

    /** Requests that are no operation, and the error and message they are answered with. */
    private static final Map<String, String> REFUSED = new LinkedHashMap<>();

    static {
        REFUSED.put("PUT /", "METHOD_NOT_ALLOWED PUT is not allowed on the service");
        REFUSED.put("POST /", "METHOD_NOT_ALLOWED POST is not allowed on the service");
        REFUSED.put("GET /?website", "NOT_IMPLEMENTED the ?website subresource is not supported by this gateway on GET");
        REFUSED.put("PUT /?foo", "NOT_IMPLEMENTED the ?foo subresource is not supported by this gateway on PUT");
        REFUSED.put("PATCH b", "METHOD_NOT_ALLOWED PATCH is not allowed on a bucket");
        REFUSED.put("POST b", "NOT_IMPLEMENTED POST on a bucket needs ?delete");
        REFUSED.put("POST b form-signed", "NOT_IMPLEMENTED POST on a bucket needs ?delete");
        REFUSED.put("POST b?uploads form", "NOT_IMPLEMENTED POST on a bucket needs ?delete");
        REFUSED.put("PATCH b/k", "METHOD_NOT_ALLOWED PATCH is not allowed on an object");
        REFUSED.put("POST b/k", "NOT_IMPLEMENTED POST on an object needs ?uploads or ?uploadId");
        REFUSED.put("HEAD b?tagging", "METHOD_NOT_ALLOWED HEAD is not allowed on ?tagging");
        REFUSED.put("POST b/k?tagging", "METHOD_NOT_ALLOWED POST is not allowed on ?tagging");
        REFUSED.put("DELETE b?acl", "METHOD_NOT_ALLOWED DELETE is not allowed on ?acl");
        REFUSED.put("HEAD b/k?acl", "METHOD_NOT_ALLOWED HEAD is not allowed on ?acl");
        REFUSED.put("DELETE b?object-lock", "METHOD_NOT_ALLOWED DELETE is not allowed on ?object-lock");
        REFUSED.put("DELETE b/k?retention", "METHOD_NOT_ALLOWED DELETE is not allowed on ?retention");
        REFUSED.put("HEAD b/k?legal-hold", "METHOD_NOT_ALLOWED HEAD is not allowed on ?legal-hold");
        REFUSED.put("POST b?ownershipControls", "METHOD_NOT_ALLOWED POST is not allowed on ?ownershipControls");
        REFUSED.put("POST b?lifecycle", "METHOD_NOT_ALLOWED POST is not allowed on ?lifecycle");
        REFUSED.put("HEAD b?encryption", "METHOD_NOT_ALLOWED HEAD is not allowed on ?encryption");
        REFUSED.put("POST b?cors", "METHOD_NOT_ALLOWED POST is not allowed on ?cors");
        REFUSED.put("POST b?publicAccessBlock", "METHOD_NOT_ALLOWED POST is not allowed on ?publicAccessBlock");
        REFUSED.put("PUT b?policyStatus", "METHOD_NOT_ALLOWED PUT is not allowed on ?policyStatus");
        REFUSED.put("DELETE b?policyStatus", "METHOD_NOT_ALLOWED DELETE is not allowed on ?policyStatus");
        REFUSED.put("HEAD b?policy", "METHOD_NOT_ALLOWED HEAD is not allowed on ?policy");
        REFUSED.put("DELETE b?versioning", "METHOD_NOT_ALLOWED DELETE is not allowed on ?versioning");
        REFUSED.put("HEAD b?versioning", "METHOD_NOT_ALLOWED HEAD is not allowed on ?versioning");
        REFUSED.put("DELETE b?versions", "NOT_IMPLEMENTED the ?versions subresource is not supported by this gateway on DELETE");
        REFUSED.put("GET b?website", "NOT_IMPLEMENTED the ?website subresource is not supported by this gateway on GET");
        REFUSED.put("DELETE b?metadataTable", "NOT_IMPLEMENTED the ?metadataTable subresource is not supported by this gateway on DELETE");
        REFUSED.put("PUT b/k?renameObject", "NOT_IMPLEMENTED the ?renameObject subresource is not supported by this gateway on PUT");
        REFUSED.put("DELETE b?someFutureCall", "NOT_IMPLEMENTED the ?someFutureCall subresource is not supported by this gateway on DELETE");
        REFUSED.put("POST b/k?uploadId=u&someFutureCall", "NOT_IMPLEMENTED the ?someFutureCall subresource is not supported by this gateway on POST");
        REFUSED.put("GET b/k?encryption", "NOT_IMPLEMENTED the ?encryption subresource is not supported by this gateway on GET");
        REFUSED.put("GET b/k?select&torrent", "NOT_IMPLEMENTED the ?select subresource is not supported by this gateway on GET");
        REFUSED.put("PUT b/k?lifecycle", "NOT_IMPLEMENTED the ?lifecycle subresource is not supported by this gateway on PUT");
        REFUSED.put("PUT b/k?versioning&zzz", "NOT_IMPLEMENTED the ?zzz subresource is not supported by this gateway on PUT");
    }

    @Test
    void everyServedRequest_parsesIntoItsOperation() {
        SERVED.forEach((request, op) -> assertEquals(S3Router.Route.of(op), S3Router.parse(request(request)), request));
    }

    @Test
    void everyOperation_isTheParseOfSomeRequest() {
        Set<S3Operation> reached = EnumSet.noneOf(S3Operation.class);
        reached.addAll(SERVED.values());
        assertEquals(EnumSet.allOf(S3Operation.class), reached);
    }

    @Test
    void aRequestThatIsNoOperation_parsesIntoTheErrorItIsAnswered() {
        REFUSED.forEach((request, answer) -> {
            S3Router.Route r = S3Router.parse(request(request));
            assertNull(r.operation(), request);
            assertEquals(answer, r.error().name() + " " + r.message(), request);
        });
    }

    @Test
    void theBasicCallsParameters_andPresignedOnes_pass() {
        for (String m : new String[] {"PUT", "DELETE", "POST", "GET", "HEAD"}) {
            assertNull(S3Router.notServed(m, names()), m);
            assertNull(S3Router.notServed(m, names("uploadId", "partNumber", "x-id")), m);
            assertNull(S3Router.notServed(m, names("X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature", "x-amz-acl")), m);
            assertNull(S3Router.notServed(m, names("AWSAccessKeyId", "Signature", "Expires")), m);
        }
        assertNull(S3Router.notServed("DELETE", names("versionId")));
        assertNull(S3Router.notServed("POST", names("delete")));
        assertNull(S3Router.notServed("PUT", names("versioning")));
        assertNull(S3Router.notServed("GET", names("list-type", "prefix", "anything-a-reader-adds")));
    }

    @Test
    void anUnknownSubresource_onAWrite_isNotServedAsTheCallWithoutIt() {
        assertEquals("metadataTable", S3Router.notServed("DELETE", names("metadataTable")));
        assertEquals("renameObject", S3Router.notServed("PUT", names("renameObject")));
        assertEquals("someFutureCall", S3Router.notServed("POST", names("uploadId", "someFutureCall")));
        assertEquals("website", S3Router.notServed("GET", names("website")), "known unserved ones on reads too");
        assertEquals("session", S3Router.notServed("GET", names("session")));
    }

    private static TreeSet<String> names(String... names) {
        return new TreeSet<>(List.of(names));
    }

    /**
     * "METHOD LEVEL[?QUERY] [copy|form|form-signed]": LEVEL is / (the service), b (a bucket) or b/k (an object); copy:
     * with x-amz-copy-source; form: an unsigned multipart/form-data body (form-signed: a signed one, not a form upload).
     */
    private static S3Router.Request request(String spec) {
        String[] words = spec.split(" ");
        String target = words[1];
        Set<String> flags = Set.of(Arrays.copyOfRange(words, 2, words.length));
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        Map<String, List<String>> query = new TreeMap<>();
        if (q >= 0) {
            for (String p : target.substring(q + 1).split("&")) {
                int eq = p.indexOf('=');
                query.put(eq < 0 ? p : p.substring(0, eq), List.of(eq < 0 ? "" : p.substring(eq + 1)));
            }
        }
        boolean bucket = !path.equals("/");
        boolean key = path.contains("/") && bucket;
        return new S3Router.Request(words[0], bucket, key, query, flags.contains("copy"), flags.contains("form"));
    }
}
