package geoblocks.blockstore.meta;

import geoblocks.blockstore.core.MoveRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The moves this node coordinates, in the metadata engine from start to end (so a restart resumes
 * them and the block collector keeps their copies): key {@code 'm' name}, value a
 * {@link MoveRecord}. One durable engine write per save or removal.
 */
public final class MetaMoveStore {
    static final byte PREFIX = 'm';
    private final MetaEngine engine;

    /** What the engine held: the readable records, and the names of those that failed to decode. */
    public record Loaded(List<MoveRecord> moves, List<String> unreadable) {}

    public MetaMoveStore(MetaEngine engine) {
        this.engine = engine;
    }

    static byte[] key(String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] k = new byte[1 + n.length];
        k[0] = PREFIX;
        System.arraycopy(n, 0, k, 1, n.length);
        return k;
    }

    /** Stores (or replaces) the record of {@code move}'s name, durably. */
    public void save(MoveRecord move) throws IOException {
        engine.write(new MetaBatch().put(key(move.name()), move.encode()));
    }

    /** Removes the record of {@code name}, durably (nothing when there is none). */
    public void remove(String name) throws IOException {
        engine.write(new MetaBatch().delete(key(name)));
    }

    /** Every record kept, in name order. */
    public Loaded load() throws IOException {
        List<MoveRecord> moves = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        engine.scan(new byte[] {PREFIX}, new byte[] {PREFIX + 1}, (k, v) -> {
            String name = new String(k, 1, k.length - 1, StandardCharsets.UTF_8);
            try {
                MoveRecord r = MoveRecord.decode(v, "move record of '" + name + "'");
                if (!r.name().equals(name)) {
                    throw new IOException("move record of '" + name + "' holds '" + r.name() + "'");
                }
                moves.add(r);
            } catch (IOException e) {
                unreadable.add(name);
            }
            return true;
        });
        return new Loaded(moves, unreadable);
    }
}
