package geoblocks.blockstore.meta;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Puts and deletes applied together by {@link MetaEngine#write}, in the order added (a later one wins). */
public final class MetaBatch {
    /** One operation; {@code value == null} deletes the key. */
    public record Op(byte[] key, byte[] value) {}

    private final List<Op> ops = new ArrayList<>();

    public MetaBatch put(byte[] key, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("a put needs a value; use delete");
        }
        ops.add(new Op(key.clone(), value.clone()));
        return this;
    }

    public MetaBatch delete(byte[] key) {
        ops.add(new Op(key.clone(), null));
        return this;
    }

    public List<Op> ops() {
        return List.copyOf(ops);
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }

    public int size() {
        return ops.size();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("MetaBatch[");
        for (Op op : ops) {
            b.append(op.value == null ? "-" : "+").append(Arrays.toString(op.key)).append(' ');
        }
        return b.append(']').toString();
    }
}
