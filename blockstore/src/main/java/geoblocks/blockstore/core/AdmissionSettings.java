package geoblocks.blockstore.core;

import com.typesafe.config.Config;
import java.util.concurrent.TimeUnit;

/**
 * Settings of the admission queue ({@code geoblocks.node.admission.wait} and {@code .queue}; see
 * blockstore's reference.conf and docs/reliability.md): {@code waitMs}, how long a client request
 * that finds the transfer memory full waits for it before it is refused as busy (0: refused at
 * once, as before the queue), and {@code queue}, how many requests may wait at once.
 */
public record AdmissionSettings(long waitMs, int queue) {
    /**
     * Requests wait up to 15 s, at most 1,000 at once. A waiting request's client hears
     * {@code Waiting} every 2 s, so the wait may exceed the clients' silence timeouts (10 s for
     * {@code client} commands).
     */
    public static final AdmissionSettings DEFAULTS = new AdmissionSettings(15_000, 1000);

    public AdmissionSettings {
        if (waitMs < 0 || waitMs > 3_600_000) {
            throw new IllegalArgumentException("geoblocks.node.admission.wait must be in 0 ms..1 h, was " + waitMs + " ms");
        }
        if (queue < 0 || queue > 1_000_000) {
            throw new IllegalArgumentException("geoblocks.node.admission.queue must be in 0..1000000, was " + queue);
        }
    }

    public static AdmissionSettings from(Config root) {
        Config c = root.getConfig("geoblocks.node.admission");
        return new AdmissionSettings(c.getDuration("wait", TimeUnit.MILLISECONDS), c.getInt("queue"));
    }
}
