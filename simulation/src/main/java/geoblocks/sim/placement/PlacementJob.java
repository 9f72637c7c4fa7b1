package geoblocks.sim.placement;

import java.io.Serializable;

/**
 * One file of the placement matrix: in run {@code run} (an experiment and repetition), uploaded as
 * {@code name} from {@code path} with a policy and block size.
 */
public record PlacementJob(int run, String policy, int blockSize, int fileIndex, String path, String name)
        implements Serializable {
    /** The row key shared by the upload and download records. */
    public String key() {
        return run + "," + policy + "," + blockSize + "," + fileIndex;
    }
}
