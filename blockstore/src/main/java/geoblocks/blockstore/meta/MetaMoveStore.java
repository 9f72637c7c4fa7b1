package geoblocks.blockstore.meta;

import geoblocks.blockstore.core.MoveRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The moves this node coordinates, in the metadata engine from start to end (so a restart resumes
 * them and the block collector keeps their copies): one per version, key {@code 'm' name 0x00
 * fileId}, value a {@link MoveRecord}. Records of an earlier build, keyed {@code 'm' name}, are
 * read and rewritten under the new key by {@link #load}. One durable engine write per save or
 * removal. A name never holds 0x00 ({@code Manifest.validateName} refuses control characters), so
 * the key splits unambiguously.
 */
public final class MetaMoveStore {
    static final byte PREFIX = 'm';
    private final MetaEngine engine;

    /** What the engine held: the readable records, and the keys ({@link #key}) of those that failed to decode. */
    public record Loaded(List<MoveRecord> moves, List<String> unreadable) {}

    public MetaMoveStore(MetaEngine engine) {
        this.engine = engine;
    }

    /** The key of the move of version {@code fileId} of {@code name} (without the prefix byte). */
    public static String key(String name, String fileId) {
        return name + '\0' + fileId;
    }

    public static String key(MoveRecord r) {
        return key(r.name(), r.from().fileId());
    }

    /** A key for log lines: {@code 'name' (file fileId)}. */
    public static String describe(String key) {
        int z = key.indexOf('\0');
        return z < 0 ? "of '" + key + "'" : "of '" + key.substring(0, z) + "' (file " + key.substring(z + 1) + ")";
    }

    private static byte[] engineKey(String key) {
        byte[] n = key.getBytes(StandardCharsets.UTF_8);
        byte[] k = new byte[1 + n.length];
        k[0] = PREFIX;
        System.arraycopy(n, 0, k, 1, n.length);
        return k;
    }

    /** Stores (or replaces) the record of {@code move}'s version, durably. */
    public void save(MoveRecord move) throws IOException {
        engine.write(new MetaBatch().put(engineKey(key(move)), move.encode()));
    }

    /** Removes the record under {@code key}, durably (nothing when there is none). */
    public void remove(String key) throws IOException {
        engine.write(new MetaBatch().delete(engineKey(key)));
    }

    /** Every record kept, in key order; records under an earlier build's key are moved to theirs. */
    public Loaded load() throws IOException {
        List<MoveRecord> moves = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        List<String> legacy = new ArrayList<>();
        engine.scan(new byte[] {PREFIX}, new byte[] {PREFIX + 1}, (k, v) -> {
            String key = new String(k, 1, k.length - 1, StandardCharsets.UTF_8);
            int z = key.indexOf('\0');
            String name = z < 0 ? key : key.substring(0, z);
            try {
                MoveRecord r = MoveRecord.decode(v, "move record " + describe(key));
                if (!r.name().equals(name) || (z >= 0 && !r.from().fileId().equals(key.substring(z + 1)))) {
                    throw new IOException("move record " + describe(key) + " holds '" + r.name() + "' file "
                            + r.from().fileId());
                }
                moves.add(r);
                if (z < 0) {
                    legacy.add(key);
                }
            } catch (IOException e) {
                unreadable.add(key);
            }
            return true;
        });
        for (MoveRecord r : moves) {
            if (legacy.contains(r.name())) {
                engine.write(new MetaBatch().put(engineKey(key(r)), r.encode()).delete(engineKey(r.name())));
            }
        }
        return new Loaded(moves, unreadable);
    }
}
