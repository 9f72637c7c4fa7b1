package geoblocks.node.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdminTokensTest {
    static final long NOW = 1_800_000_000_000L;
    static final long DAY = 86_400_000L;

    static SecureRandom seeded(long seed) throws Exception {
        SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
        r.setSeed(seed);
        return r;
    }

    @Test
    void aMintedToken_parses_andIsAllowedForItsScopes_untilItExpires() throws Exception {
        AdminTokens.Minted m = AdminTokens.mint("ops-ci", EnumSet.of(AdminScope.CLUSTER), 30 * DAY, NOW, seeded(1));
        assertTrue(m.token().startsWith("gbt_" + m.record().id() + "_"), m.token());
        AdminTokens.Presented p = AdminTokens.parse(m.token());
        assertNotNull(p);
        assertEquals(m.record().id(), p.id());
        assertFalse(m.record().secretSha256().contains(p.secret()), "the record keeps a hash, not the secret");
        assertInstanceOf(AdminTokens.Verdict.Allowed.class, AdminTokens.decide(p, m.record(), AdminScope.CLUSTER, NOW));
        assertInstanceOf(AdminTokens.Verdict.Allowed.class,
                AdminTokens.decide(p, m.record(), AdminScope.CLUSTER, NOW + 30 * DAY - 1));
        AdminTokens.Verdict.Refused expired = assertInstanceOf(AdminTokens.Verdict.Refused.class,
                AdminTokens.decide(p, m.record(), AdminScope.CLUSTER, NOW + 30 * DAY));
        assertEquals(401, expired.status());
        assertTrue(expired.reason().contains("expired at"), expired.reason());
    }

    @Test
    void theWrongSecret_anotherScope_aRevokedRecord_orNoRecord_areRefused() throws Exception {
        AdminTokens.Minted m = AdminTokens.mint("ops", EnumSet.of(AdminScope.DATA), DAY, NOW, seeded(2));
        AdminTokens.Presented p = AdminTokens.parse(m.token());
        AdminTokens.Presented forged = new AdminTokens.Presented(p.id(), "A".repeat(43));
        assertEquals(401, refused(AdminTokens.decide(forged, m.record(), AdminScope.DATA, NOW)).status());
        AdminTokens.Verdict.Refused scope = refused(AdminTokens.decide(p, m.record(), AdminScope.CLUSTER, NOW));
        assertEquals(403, scope.status());
        assertTrue(scope.reason().contains("not cluster"), scope.reason());
        assertEquals(401, refused(AdminTokens.decide(p, m.record().revoke(NOW), AdminScope.DATA, NOW + 1)).status());
        assertEquals(401, refused(AdminTokens.decide(p, null, AdminScope.DATA, NOW)).status());
    }

    private static AdminTokens.Verdict.Refused refused(AdminTokens.Verdict v) {
        return assertInstanceOf(AdminTokens.Verdict.Refused.class, v);
    }

    @Test
    void parse_takesOnlyTheTokensForm() {
        assertNull(AdminTokens.parse(null));
        assertNull(AdminTokens.parse("gbt_abc_def"));
        assertNull(AdminTokens.parse("gbt_ABCDEFGHIJKLMNOP_" + "A".repeat(43)), "the id is lower-case base32");
        assertNull(AdminTokens.parse("gbt_abcdefghijklmnop_" + "A".repeat(42)));
        assertNotNull(AdminTokens.parse("gbt_abcdefghijklmnop_" + "A".repeat(43)));
        assertEquals("tok", AdminTokens.bearer("Bearer tok"));
        assertEquals("tok", AdminTokens.bearer("bearer  tok "));
        assertNull(AdminTokens.bearer("Basic YWRtaW46eA=="));
        assertNull(AdminTokens.bearer("Bearer "));
    }

    @Test
    void mint_refusesBadNamesLivesAndEmptyScopes() throws Exception {
        SecureRandom r = seeded(3);
        assertThrows(IllegalArgumentException.class, () -> AdminTokens.mint("has space", Set.of(AdminScope.DATA), DAY, NOW, r));
        assertThrows(IllegalArgumentException.class, () -> AdminTokens.mint("x", Set.of(AdminScope.DATA), 59_000, NOW, r));
        assertThrows(IllegalArgumentException.class,
                () -> AdminTokens.mint("x", Set.of(AdminScope.DATA), AdminTokens.MAX_TTL_MILLIS + 1, NOW, r));
        assertThrows(IllegalArgumentException.class, () -> AdminTokens.mint("x", Set.of(), DAY, NOW, r));
    }

    @Test
    void theRecord_roundTrips_andADamagedOneIsAnError() throws Exception {
        AdminToken t = AdminTokens.mint("a.b", EnumSet.of(AdminScope.DATA, AdminScope.TOKENS), DAY, NOW, seeded(4)).record();
        assertEquals(t, AdminToken.decode(t.id(), t.encode()));
        assertFalse(t.toString().contains(t.secretSha256()), "toString leaves the hash out");
        assertThrows(IOException.class, () -> AdminToken.decode(t.id(), "junk".getBytes(StandardCharsets.UTF_8)));
        byte[] noScopes = new String(t.encode(), StandardCharsets.UTF_8).replace("scopes=data,tokens", "scopes=root")
                .getBytes(StandardCharsets.UTF_8);
        assertThrows(IOException.class, () -> AdminToken.decode(t.id(), noScopes));
    }

    @Test
    void theRootToken_isComparedWhole_andMustBeLongEnough() {
        String root = "r".repeat(30);
        assertTrue(AdminTokens.isRoot(root, root));
        assertFalse(AdminTokens.isRoot(root.substring(1), root));
        assertFalse(AdminTokens.isRoot(null, root));
        assertFalse(AdminTokens.isRoot("", ""));
        assertNotNull(AdminTokens.rootProblem("short"));
        assertNull(AdminTokens.rootProblem(root));
        assertNull(AdminTokens.rootProblem(AdminTokens.DEMO_ROOT));
    }
}
