package geoblocks.blockstore.client;

import java.io.IOException;

/**
 * Where a download's bytes go when not into a file: called in order, each part after its block's
 * CRC32C was fed (a block's checksum is checked when its last part arrives; on a mismatch the
 * download fails and the sink sees no more parts). An exception fails the download.
 */
public interface ByteSink {
    void write(long offset, byte[] data) throws IOException;
}
