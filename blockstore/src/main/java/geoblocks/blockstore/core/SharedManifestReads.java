package geoblocks.blockstore.core;

import static geoblocks.blockstore.core.ManifestKeys.historyKey;

import geoblocks.blockstore.meta.MetaEngine;
import java.io.IOException;
import java.util.Optional;

/**
 * Reads of a node's manifests that threads other than the store's owner may make (the S3 gateway's
 * event loop), straight from the {@link MetaEngine}, whose reads are thread-safe; the store's cache
 * is not used. It answers only what the node would answer from its own store and only what is
 * durable: a name that is absent here, unreadable, or written and not yet synced
 * ({@link UnsyncedNames}) gets an empty answer, and the caller asks the node instead (which then
 * asks its peers, or holds its answer until the sync). Thread-safe.
 */
public final class SharedManifestReads {
    private final MetaEngine engine;
    private final UnsyncedNames unsynced;

    SharedManifestReads(MetaEngine engine, UnsyncedNames unsynced) {
        this.engine = engine;
        this.unsynced = unsynced;
    }

    /**
     * The newest live version of {@code name} as this node's store holds it, when that is durable;
     * empty when the name is unknown here, its newest version is a delete, its record does not decode
     * or names another name, or its last write is not synced yet: then only the node can answer.
     */
    public Optional<Manifest> live(String name) {
        byte[] bytes;
        try {
            bytes = engine.get(historyKey(name));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        // checked after the read: a record read here that is not durable yet still has its name listed
        if (bytes == null || unsynced.contains(name)) {
            return Optional.empty();
        }
        ManifestHistory h;
        try {
            h = ManifestCodec.decodeAny(bytes);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // the node's own read counts it as corrupt
        }
        return h.name().equals(name) ? h.live() : Optional.empty();
    }
}
