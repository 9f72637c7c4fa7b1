package geoblocks.node.s3.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AccessKeysTest {
    private final AccessKeys keys = new AccessKeys("a-cluster-secret-of-16+");

    @Test
    void created_key_opens_to_its_secret_and_its_record_never_holds_it() throws IOException {
        AccessKeys.Created c = keys.create("alice", 1234, new SecureRandom());
        assertTrue(AccessKeys.validId(c.key().id()), c.key().id());
        assertEquals(40, c.secret().length());
        byte[] record = c.key().encode();
        assertFalse(new String(record, StandardCharsets.UTF_8).contains(c.secret()), "the record never holds the secret in clear");
        AccessKeys.Key back = AccessKeys.Key.decode(c.key().id(), record);
        assertEquals(c.key(), back);
        assertEquals(c.secret(), keys.open(back));
        assertEquals("alice", back.name());
        assertFalse(back.revoked());
    }

    @Test
    void another_cluster_secret_cannot_open_it() {
        AccessKeys.Created c = keys.create("bob", 1, new SecureRandom());
        assertThrows(IOException.class, () -> new AccessKeys("another-cluster-secret").open(c.key()));
    }

    @Test
    void a_sealed_secret_copied_to_another_key_id_does_not_open() throws IOException {
        AccessKeys.Created a = keys.create("a", 1, new SecureRandom());
        AccessKeys.Created b = keys.create("b", 1, new SecureRandom());
        AccessKeys.Key forged = new AccessKeys.Key(b.key().id(), "b", a.key().sealedSecret(), 1, 0);
        assertThrows(IOException.class, () -> keys.open(forged));
        assertEquals(b.secret(), keys.open(b.key()));
    }

    @Test
    void tampered_ciphertext_does_not_open() {
        AccessKeys.Created a = keys.create("a", 1, new SecureRandom());
        String s = a.key().sealedSecret();
        char last = s.charAt(10);
        String bad = s.substring(0, 10) + (last == 'A' ? 'B' : 'A') + s.substring(11);
        assertThrows(IOException.class, () -> keys.open(new AccessKeys.Key(a.key().id(), "a", bad, 1, 0)));
        assertThrows(IOException.class, () -> keys.open(new AccessKeys.Key(a.key().id(), "a", "plain", 1, 0)));
    }

    @Test
    void same_secret_sealed_twice_differs_nonce() {
        SecureRandom r = new SecureRandom();
        assertNotEquals(keys.seal("GBAAAAAAAAAAAAAAAAAA", "s", r), keys.seal("GBAAAAAAAAAAAAAAAAAA", "s", r));
    }

    @Test
    void revocation_survives_the_record() throws IOException {
        AccessKeys.Created c = keys.create("carol", 5, new SecureRandom());
        AccessKeys.Key r = AccessKeys.Key.decode(c.key().id(), c.key().revoke(99).encode());
        assertTrue(r.revoked());
        assertEquals(99, r.revokedMillis());
    }

    @Test
    void ids_are_unique_and_names_checked() {
        Set<String> ids = new HashSet<>();
        SecureRandom r = new SecureRandom();
        for (int i = 0; i < 1000; i++) {
            assertTrue(ids.add(keys.create("k", 1, r).key().id()));
        }
        assertNotNull(AccessKeys.nameProblem("has space"));
        assertNotNull(AccessKeys.nameProblem(""));
        assertThrows(IllegalArgumentException.class, () -> keys.create("a/b", 1, r));
        assertFalse(AccessKeys.validId("geoblocks-demo"));
    }

    @Test
    void damaged_records_are_refused() {
        assertThrows(IOException.class, () -> AccessKeys.Key.decode("GBAAAAAAAAAAAAAAAAAA", "format=2\n".getBytes()));
        assertThrows(IOException.class, () -> AccessKeys.Key.decode("GBAAAAAAAAAAAAAAAAAA",
                "format=1\nid=GBBBBBBBBBBBBBBBBBBB\nname=x\nsecret=v1:x\n".getBytes()));
    }
}
