package geoblocks.node.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The record of one admin token, as every region keeps it: its id and name, the SHA-256 of its secret
 * (hex; the secret itself is shown once, at creation, and kept nowhere), its scopes, when it was made,
 * when it expires and when it was revoked (0: not). Stored as {@code key=value} lines under a version line.
 */
public record AdminToken(String id, String name, String secretSha256, Set<AdminScope> scopes, long createdMillis,
        long expiresMillis, long revokedMillis) {
    static final String FORMAT = "geoblocks-admin-token-v1";

    public AdminToken {
        scopes = Set.copyOf(scopes);
        if (scopes.isEmpty()) {
            throw new IllegalArgumentException("an admin token needs at least one scope");
        }
    }

    public boolean revoked() {
        return revokedMillis > 0;
    }

    public AdminToken revoke(long atMillis) {
        return new AdminToken(id, name, secretSha256, scopes, createdMillis, expiresMillis, atMillis);
    }

    public byte[] encode() {
        return (FORMAT + "\nname=" + name + "\nsha256=" + secretSha256 + "\nscopes=" + AdminScope.labels(scopes)
                + "\ncreated=" + createdMillis + "\nexpires=" + expiresMillis + "\nrevoked=" + revokedMillis + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The record of token {@code id} from its bytes; IOException naming what is wrong. */
    public static AdminToken decode(String id, byte[] bytes) throws IOException {
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
        if (lines.length == 0 || !lines[0].equals(FORMAT)) {
            throw new IOException("admin token record " + id + " is not a " + FORMAT + " record");
        }
        Map<String, String> f = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int eq = lines[i].indexOf('=');
            if (eq > 0) {
                f.put(lines[i].substring(0, eq), lines[i].substring(eq + 1));
            }
        }
        try {
            return new AdminToken(id, need(f, "name"), need(f, "sha256"), AdminScope.parse(need(f, "scopes")),
                    Long.parseLong(need(f, "created")), Long.parseLong(need(f, "expires")), Long.parseLong(need(f, "revoked")));
        } catch (IllegalArgumentException e) {
            throw new IOException("admin token record " + id + " is damaged: " + e.getMessage(), e);
        }
    }

    private static String need(Map<String, String> f, String k) {
        String v = f.get(k);
        if (v == null) {
            throw new IllegalArgumentException("no " + k);
        }
        return v;
    }

    /** Without the hash (it would otherwise reach a log with the record). */
    @Override
    public String toString() {
        return "AdminToken[id=" + id + ", name=" + name + ", scopes=" + AdminScope.labels(scopes) + ", created="
                + createdMillis + ", expires=" + expiresMillis + ", revoked=" + revokedMillis + "]";
    }
}
