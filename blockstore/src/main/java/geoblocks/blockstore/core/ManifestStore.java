package geoblocks.blockstore.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The manifests a node knows, kept durably in a {@link BlockStorage} (one block per manifest, id
 * {@code m-<hex of the name>}) with a sorted in-memory index. Corrupt manifests found when loading
 * are counted and skipped, never served. Not thread-safe: one component owns it.
 */
public final class ManifestStore {
    private static final String PREFIX = "m-";
    private final BlockStorage storage;
    private final TreeMap<String, Manifest> index = new TreeMap<>();
    private final int corruptOnLoad;

    public ManifestStore(BlockStorage storage) throws IOException {
        this.storage = storage;
        int corrupt = 0;
        for (BlockId id : storage.list()) {
            if (!id.value().startsWith(PREFIX)) {
                continue;
            }
            try {
                Manifest m = ManifestCodec.decode(storage.get(id).data());
                index.put(m.name(), m);
            } catch (IOException e) {
                corrupt++;
            }
        }
        this.corruptOnLoad = corrupt;
    }

    static BlockId idOf(String name) {
        return new BlockId(PREFIX + HexFormat.of().formatHex(name.getBytes(StandardCharsets.UTF_8)));
    }

    public int corruptOnLoad() {
        return corruptOnLoad;
    }

    /** Stores (or replaces) a manifest durably. */
    public void save(Manifest m) throws IOException {
        byte[] bytes = ManifestCodec.encode(m);
        storage.put(idOf(m.name()), bytes, Checksums.crc32c(bytes));
        index.put(m.name(), m);
    }

    public Optional<Manifest> find(String name) {
        return Optional.ofNullable(index.get(name));
    }

    public boolean remove(String name) throws IOException {
        boolean had = index.remove(name) != null;
        storage.delete(idOf(name));
        return had;
    }

    /** Up to {@code limit} manifests with names after {@code after} (exclusive; "" for the start). */
    public List<Manifest> list(String after, int limit) {
        List<Manifest> out = new ArrayList<>();
        for (Manifest m : index.tailMap(after, false).values()) {
            if (out.size() == limit) {
                break;
            }
            out.add(m);
        }
        return out;
    }

    public int size() {
        return index.size();
    }
}
