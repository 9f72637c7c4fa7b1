package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/** In-memory {@link BlockStorage} for the simulator and tests; same contract, no durability. */
public final class MemoryBlockStorage implements BlockStorage {
    private final ConcurrentHashMap<BlockId, Block> blocks = new ConcurrentHashMap<>();

    @Override
    public void put(BlockId id, byte[] data, int crc) throws CorruptBlockException {
        int actual = Checksums.crc32c(data);
        if (actual != crc) {
            throw new CorruptBlockException(id, "checksum " + Checksums.hex(actual) + " != expected " + Checksums.hex(crc));
        }
        blocks.put(id, new Block(data.clone(), crc));
    }

    @Override
    public Block get(BlockId id) throws NoSuchBlockException, CorruptBlockException {
        Block b = blocks.get(id);
        if (b == null) {
            throw new NoSuchBlockException(id);
        }
        if (Checksums.crc32c(b.data()) != b.crc()) {
            throw new CorruptBlockException(id, "checksum mismatch in memory");
        }
        return new Block(b.data().clone(), b.crc());
    }

    @Override
    public boolean delete(BlockId id) {
        return blocks.remove(id) != null;
    }

    @Override
    public boolean contains(BlockId id) {
        return blocks.containsKey(id);
    }

    @Override
    public List<BlockId> list() {
        List<BlockId> ids = new ArrayList<>(blocks.keySet());
        ids.sort(null);
        return ids;
    }

    /** Test hook: flips one bit of a stored block, as a bad disk would. */
    public void corrupt(BlockId id) {
        blocks.computeIfPresent(id, (k, b) -> {
            byte[] d = b.data().clone();
            d[0] ^= 1;
            return new Block(d, b.crc());
        });
    }
}
