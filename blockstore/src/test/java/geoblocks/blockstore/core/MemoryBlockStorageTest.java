package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class MemoryBlockStorageTest extends BlockStorageContract {

    @Override
    protected BlockStorage newStore() {
        return new MemoryBlockStorage(System::currentTimeMillis); // the contract rewrites a block after a listing and expects a later stamp
    }

    @Test
    void get_afterCorruptHook_throwsCorruptBlock() throws IOException {
        MemoryBlockStorage s = (MemoryBlockStorage) store;
        put(s, A, randomBytes(1, 100));
        s.corrupt(A);
        assertThrows(CorruptBlockException.class, () -> s.get(A));
        assertTrue(s.contains(A));
    }
}
