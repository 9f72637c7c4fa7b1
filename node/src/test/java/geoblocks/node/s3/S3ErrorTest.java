package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.wire.FailureCode;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class S3ErrorTest {
    /**
     * The node-code table: a busy or unavailable node is a 503 the S3 client retries (as the gateway
     * answered "node busy" and "retry in a few seconds" before codes); what is missing is 404; a
     * refused create or a superseded version is a failed precondition; the rest is the gateway's
     * problem, 500.
     */
    @Test
    void forNode_mapsEveryCode() {
        assertEquals(S3Error.NO_SUCH_KEY, S3Error.forNode(FailureCode.NOT_FOUND));
        assertEquals(S3Error.PRECONDITION_FAILED, S3Error.forNode(FailureCode.EXISTS));
        assertEquals(S3Error.PRECONDITION_FAILED, S3Error.forNode(FailureCode.NEWER_EXISTS));
        assertEquals(S3Error.SLOW_DOWN, S3Error.forNode(FailureCode.BUSY));
        assertEquals(S3Error.SERVICE_UNAVAILABLE, S3Error.forNode(FailureCode.UNAVAILABLE));
        assertEquals(S3Error.INTERNAL_ERROR, S3Error.forNode(FailureCode.INVALID));
        assertEquals(S3Error.INTERNAL_ERROR, S3Error.forNode(FailureCode.INTERNAL));
        assertEquals(S3Error.INTERNAL_ERROR, S3Error.forNode(FailureCode.OUTCOME_UNKNOWN));
    }

    @Test
    void forNode_statuses() {
        assertEquals(404, S3Error.forNode(FailureCode.NOT_FOUND).status());
        assertEquals(412, S3Error.forNode(FailureCode.EXISTS).status());
        assertEquals(503, S3Error.forNode(FailureCode.BUSY).status());
        assertEquals(503, S3Error.forNode(FailureCode.UNAVAILABLE).status());
        assertEquals(500, S3Error.forNode(FailureCode.INTERNAL).status());
    }

    /**
     * A full disk, a missing block, a corrupt block and a disk's I/O error each keep their own S3 code;
     * none looks like the client's fault (4xx): a full disk is 507, the others 500.
     */
    @Test
    void forNode_storageFailures_areDistinct_andServerSide() {
        assertEquals(S3Error.INSUFFICIENT_STORAGE, S3Error.forNode(FailureCode.INSUFFICIENT_STORAGE));
        assertEquals(S3Error.BLOCK_MISSING, S3Error.forNode(FailureCode.BLOCK_MISSING));
        assertEquals(S3Error.BLOCK_CORRUPT, S3Error.forNode(FailureCode.BLOCK_CORRUPT));
        assertEquals(S3Error.STORAGE_IO_ERROR, S3Error.forNode(FailureCode.IO_ERROR));
        assertEquals(507, S3Error.forNode(FailureCode.INSUFFICIENT_STORAGE).status());
        Set<String> codes = new HashSet<>();
        for (FailureCode c : new FailureCode[] {FailureCode.INSUFFICIENT_STORAGE, FailureCode.BLOCK_MISSING,
                FailureCode.BLOCK_CORRUPT, FailureCode.IO_ERROR, FailureCode.INTERNAL}) {
            assertEquals(true, codes.add(S3Error.forNode(c).code()), c + " shares its S3 code");
            assertEquals(true, S3Error.forNode(c).status() >= 500, c + " is the node's fault");
        }
        assertEquals(500, S3Error.forNode(FailureCode.BLOCK_MISSING).status());
        assertEquals(500, S3Error.forNode(FailureCode.BLOCK_CORRUPT).status());
        assertEquals(500, S3Error.forNode(FailureCode.IO_ERROR).status());
    }

    /** The words of a message never decide: a busy-sounding text with another code is not a 503. */
    @Test
    void storeException_isJudgedByItsCode() {
        NodeStore.StoreException e = new NodeStore.StoreException(FailureCode.INVALID, "node busy: no such file 'x' already exists");
        assertEquals(false, e.notFound());
        assertEquals(false, e.exists());
        assertEquals(S3Error.INTERNAL_ERROR, S3Error.forNode(e.code()));
        assertEquals(true, new NodeStore.StoreException(FailureCode.NOT_FOUND, "gone").notFound());
    }
}
