package geoblocks.node.http;

import java.io.IOException;
import java.io.InputStream;

/** Files served from the jar (the dashboard page, the admin API's OpenAPI document). */
public final class Resources {
    private Resources() {}

    /** The bytes of resource {@code name} (an absolute path in the jar); IllegalStateException when it is missing. */
    public static byte[] read(String name) {
        try (InputStream in = Resources.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read resource " + name + ": " + e, e);
        }
    }
}
