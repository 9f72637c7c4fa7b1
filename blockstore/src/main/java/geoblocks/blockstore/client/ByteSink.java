package geoblocks.blockstore.client;

import java.io.IOException;

/**
 * Where a download's bytes go when not into a file: called in order, each part after its block's
 * CRC32C was fed (a block's checksum is checked when its last part arrives; on a mismatch the
 * download fails and the sink sees no more parts). An exception fails the download.
 */
public interface ByteSink {
    /**
     * A download into this sink starts (again): forget anything written before. A request that is
     * retried (e.g. after a busy refusal part way through) streams from offset 0 once more.
     */
    void begin() throws IOException;

    void write(long offset, byte[] data) throws IOException;
}
