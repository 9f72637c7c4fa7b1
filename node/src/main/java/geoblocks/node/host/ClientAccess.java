package geoblocks.node.host;

import com.typesafe.config.Config;
import geoblocks.node.http.Redact;
import java.util.Map;

/**
 * The access key a file-protocol client (a {@code node.jar client} command, a GeoClient) authenticates by instead
 * of the cluster secret: {@code GEOBLOCKS_ACCESS_KEY} and {@code GEOBLOCKS_SECRET_KEY} in the environment, else
 * {@code geoblocks.client.access-key} and {@code secret-key} in the config; none when neither names one (the
 * client proves the cluster secret, as before access keys). The secret is never printed.
 */
public record ClientAccess(String id, String secret) {
    public static final String KEY_ENV = "GEOBLOCKS_ACCESS_KEY";
    public static final String SECRET_ENV = "GEOBLOCKS_SECRET_KEY";

    public ClientAccess {
        if (id.isEmpty() || secret.length() < 16) {
            throw new IllegalArgumentException("an access key needs its id and its secret (16+ characters, as `client key"
                    + " create` prints it); got id '" + id + "' and a secret of " + secret.length() + " characters");
        }
    }

    /** The access key {@code env} or else {@code root} names, or null; IllegalArgumentException when only half is set. */
    public static ClientAccess from(Config root, Map<String, String> env) {
        String id = env.getOrDefault(KEY_ENV, "");
        String secret = env.getOrDefault(SECRET_ENV, "");
        String where = KEY_ENV + " and " + SECRET_ENV;
        if (id.isEmpty() && secret.isEmpty()) {
            id = root.hasPath("geoblocks.client.access-key") ? root.getString("geoblocks.client.access-key") : "";
            secret = root.hasPath("geoblocks.client.secret-key") ? root.getString("geoblocks.client.secret-key") : "";
            where = "geoblocks.client.access-key and secret-key";
        }
        if (id.isEmpty() && secret.isEmpty()) {
            return null;
        }
        if (id.isEmpty() || secret.isEmpty()) {
            throw new IllegalArgumentException(where + " go together: set both, or neither to prove the cluster secret");
        }
        return new ClientAccess(id, secret);
    }

    @Override
    public String toString() {
        return "ClientAccess[id=" + id + ", secret=" + Redact.secret(secret) + "]";
    }
}
