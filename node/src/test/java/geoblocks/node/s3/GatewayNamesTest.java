package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which file names the S3 gateway keeps from clients by access key ({@link S3Names#GATEWAY}). */
class GatewayNamesTest {
    @Test
    void objectsAndDottedNames_areTheGateways_otherNamesAreNot() {
        for (String n : List.of(S3Names.fileName("photos", "cat.jpg"), S3Names.bucketFile("photos"), ".s3-keys/GBX",
                ".admin/tokens", "my.bucket-1/a/b")) {
            assertTrue(S3Names.GATEWAY.holds(n), n);
        }
        for (String n : List.of("notes.txt", "Photos/cat.jpg", "my_files/a", "ab/x", "-x/y")) {
            assertFalse(S3Names.GATEWAY.holds(n), n);
        }
    }

    @Test
    void aPrefix_mayHoldTheGatewaysNames_unlessItsFirstPartRulesOutABucket() {
        for (String p : List.of("", ".", ".s3", "photos/", "p", "photos", "my.b")) {
            assertTrue(S3Names.GATEWAY.mayHoldUnder(p), p);
        }
        for (String p : List.of("Photos/", "P", "my_", "ab/", "Reports/2024")) {
            assertFalse(S3Names.GATEWAY.mayHoldUnder(p), p);
        }
    }
}
