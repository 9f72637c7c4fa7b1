package geoblocks.node.s3.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.FileGrant;
import geoblocks.network.session.ClientKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The keys a node takes file-protocol clients by, over the key records (a map here) with a fake clock: a key's
 * grants come from its record; a revoked key is still answered from the cache until {@value S3KeyStore#CACHE_MS}
 * ms after it was read, and refused from then on; unknown keys and the config's S3 key are none.
 */
class FileKeysTest {
    private static final AccessKeys KEYS = new AccessKeys("cluster-secret-for-the-test");
    private final Map<String, byte[]> records = new ConcurrentHashMap<>();
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final FileKeys fileKeys = new FileKeys(new S3KeyStore(
            file -> CompletableFuture.completedFuture(records.get(file)), KEYS, "GBROOTROOTROOTROOTRO", "root-secret-0123456789",
            now::get));

    private Optional<ClientKey> resolve(String id) {
        return fileKeys.resolve(id).join();
    }

    @Test
    void aKeyWithGrants_resolvesToItsSecretAndGrants() {
        AccessKeys.Created k = KEYS.create("alice", FileGrant.parseAll("Reports/:rw"), now.get(), new SecureRandom());
        records.put(AccessKeys.file(k.key().id()), k.key().encode());
        ClientKey got = resolve(k.key().id()).orElseThrow();
        assertEquals(k.key().id(), got.id());
        assertEquals(FileGrant.parseAll("Reports/:rw"), got.key().grants());
        assertEquals(k.secret(), new String(got.secret(), StandardCharsets.UTF_8));
    }

    @Test
    void aRevokedKey_isRefusedOnceTheCachedRecordIsOlderThanTheCache() {
        AccessKeys.Created k = KEYS.create("bob", List.of(), now.get(), new SecureRandom());
        String id = k.key().id();
        records.put(AccessKeys.file(id), k.key().encode());
        assertTrue(resolve(id).isPresent());
        records.put(AccessKeys.file(id), k.key().revoke(now.get()).encode());
        now.addAndGet(S3KeyStore.CACHE_MS - 1);
        assertTrue(resolve(id).isPresent(), "still the cached record");
        now.addAndGet(1);
        assertFalse(resolve(id).isPresent(), "the record read again: revoked");
    }

    @Test
    void unknownIds_andTheConfigsS3Key_areNone() {
        assertFalse(resolve("GB" + "A".repeat(18)).isPresent());
        assertFalse(resolve("not-an-id").isPresent());
        assertFalse(resolve("GBROOTROOTROOTROOTRO").isPresent(), "the config's key is for S3 only");
    }

    @Test
    void aRecordWithoutFiles_readsAsBefore_andGrantsRoundTrip() throws Exception {
        AccessKeys.Key old = new AccessKeys.Key("GB" + "B".repeat(18), "old", "v1:xx", 1, 0);
        assertFalse(new String(old.encode(), StandardCharsets.UTF_8).contains("files="), "written as before grants");
        AccessKeys.Key withFiles = new AccessKeys.Key(old.id(), "new", "v1:xx", 1, 0, FileGrant.parseAll("A/:r,B/:w"));
        assertEquals(withFiles, AccessKeys.Key.decode(old.id(), withFiles.encode()));
        assertEquals(withFiles.files(), withFiles.revoke(5).files());
    }
}
