package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.DiskFullException;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.wire.FailureCode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A failed block write keeps its kind: no room is INSUFFICIENT_STORAGE (S3 507, exit 13), anything else INTERNAL. */
class BlockWriteFailureTest {
    @Test
    void noRoom_isInsufficientStorage_andOtherFailuresInternal() throws Exception {
        MemoryBlockStorage small = new MemoryBlockStorage(1024, 0, System::currentTimeMillis);
        IOException full = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> small.put(BlockId.ofFileBlock("f", 0), new byte[4096], geoblocks.blockstore.core.Checksums.crc32c(new byte[4096])));
        assertEquals(DiskFullException.class, full.getClass(), full.toString());
        assertEquals(FailureCode.INSUFFICIENT_STORAGE, BlockStoreComponent.codeOf(full));
        assertEquals(FailureCode.INTERNAL, BlockStoreComponent.codeOf(new IOException("EIO")));
        assertEquals(FailureCode.INTERNAL, BlockStoreComponent.codeOf(new IllegalStateException("bug")));
    }
}
