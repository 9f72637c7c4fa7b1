package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Sends a new manifest to every peer that is up, so the file can be found from any node, and
 * reports which peers did not store it (down, failed or silent). Those find it later by lookup.
 * Publications to one peer are batched under load ({@link Publications}).
 */
final class ManifestPublisher {
    private final Node node;
    /** The encoded manifest or history. */
    private final byte[] bytes;
    private final Consumer<List<String>> done;
    private final List<String> unreached = new ArrayList<>();
    private int waiting;

    ManifestPublisher(Node node, Manifest manifest, Consumer<List<String>> done) {
        this(node, ManifestCodec.encode(manifest), done);
    }

    /** Publishes {@code encoded}: a manifest ({@link ManifestCodec#encode}) or a history ({@link ManifestCodec#encodeHistory}). */
    ManifestPublisher(Node node, byte[] encoded, Consumer<List<String>> done) {
        this.node = node;
        this.bytes = encoded;
        this.done = done;
    }

    void start() {
        List<String> up = new ArrayList<>();
        for (String peer : node.peerRegions()) {
            (node.rtt().isUp(peer) ? up : unreached).add(peer);
        }
        waiting = up.size();
        for (String peer : up) {
            node.publish(peer, bytes, why -> answered(why == null ? null : peer));
        }
        if (waiting == 0) {
            done.accept(unreached);
        }
    }

    private void answered(String failedPeer) {
        if (failedPeer != null) {
            unreached.add(failedPeer);
        }
        if (--waiting == 0) {
            done.accept(unreached);
        }
    }
}
