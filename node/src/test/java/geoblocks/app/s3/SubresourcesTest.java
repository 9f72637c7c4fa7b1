package geoblocks.app.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.junit.jupiter.api.Test;

class SubresourcesTest {
    @Test
    void theBasicCallsParameters_andPresignedOnes_pass() {
        for (String m : new String[] {"PUT", "DELETE", "POST", "GET", "HEAD"}) {
            assertNull(Subresources.notServed(m, Set.of()), m);
            assertNull(Subresources.notServed(m, Set.of("uploadId", "partNumber", "x-id")), m);
            assertNull(Subresources.notServed(m, Set.of("X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature",
                    "x-amz-acl")), m);
            assertNull(Subresources.notServed(m, Set.of("AWSAccessKeyId", "Signature", "Expires")), m);
        }
        assertNull(Subresources.notServed("DELETE", Set.of("versionId")));
        assertNull(Subresources.notServed("POST", Set.of("delete")));
        assertNull(Subresources.notServed("PUT", Set.of("versioning")));
        assertNull(Subresources.notServed("GET", Set.of("list-type", "prefix", "anything-a-reader-adds")));
    }

    @Test
    void anUnknownSubresource_onAWrite_isNotServedAsTheCallWithoutIt() {
        assertEquals("metadataTable", Subresources.notServed("DELETE", Set.of("metadataTable")));
        assertEquals("renameObject", Subresources.notServed("PUT", Set.of("renameObject")));
        assertEquals("someFutureCall", Subresources.notServed("DELETE", Set.of("someFutureCall")));
        assertEquals("someFutureCall", Subresources.notServed("POST", Set.of("uploadId", "someFutureCall")));
        assertEquals("website", Subresources.notServed("GET", Set.of("website")), "known unserved ones on reads too");
        assertEquals("session", Subresources.notServed("GET", Set.of("session")));
    }
}
