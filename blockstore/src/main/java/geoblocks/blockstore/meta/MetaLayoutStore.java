package geoblocks.blockstore.meta;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The node's current {@link Layout} in the metadata engine, under key {@code 'y' "layout"}
 * ({@link LayoutCodec}). {@link #open} reads it; a node with none stored (first start, or a data
 * directory from before layouts) stores version 0 built from its static config. Writes are durable.
 */
public final class MetaLayoutStore {
    static final byte PREFIX = 'y';
    static final byte[] KEY = "ylayout".getBytes(StandardCharsets.US_ASCII);
    private final MetaEngine engine;
    private Layout current;

    private MetaLayoutStore(MetaEngine engine, Layout current) {
        this.engine = engine;
        this.current = current;
    }

    /**
     * The store of {@code engine}: its layout, or {@code fromConfig} (region id to host:port) as
     * version 0 when none is stored or the stored one is version 0 (so a cluster that never applied
     * a change follows its config, as before layouts). A stored layout that fails to decode stops
     * the node with the codec's message.
     */
    public static MetaLayoutStore open(MetaEngine engine, Map<String, String> fromConfig) throws IOException {
        byte[] v = engine.get(KEY);
        Layout seed = Layout.fromConfig(fromConfig);
        Layout stored = null;
        if (v != null) {
            try {
                stored = LayoutCodec.decode(v);
            } catch (IOException e) {
                throw new IOException("the cluster layout in the metadata engine is damaged: " + e.getMessage(), e);
            }
        }
        MetaLayoutStore s = new MetaLayoutStore(engine, stored == null || stored.version() == 0 ? seed : stored);
        if (stored == null || !stored.equals(s.current)) {
            s.write(s.current);
        }
        return s;
    }

    /** The layout stored in {@code engine}, or null when none is (reads only; for tools and tests). */
    public static Layout read(MetaEngine engine) throws IOException {
        byte[] v = engine.get(KEY);
        return v == null ? null : LayoutCodec.decode(v);
    }

    public Layout current() {
        return current;
    }

    /** Stores {@code l} durably if it is newer than the current layout; true when it was. */
    public boolean adopt(Layout l) throws IOException {
        if (!l.newerThan(current)) {
            return false;
        }
        write(l);
        current = l;
        return true;
    }

    private void write(Layout l) throws IOException {
        engine.write(new MetaBatch().put(KEY, LayoutCodec.encode(l)));
    }
}
