package geoblocks.sim.reads;

/**
 * What a client machine of a reads simulation does: upload the test files and the noise file, read
 * the test files (measured), or read the noise file over and over (background load).
 */
public enum ReadsRole {
    UPLOADER, READER, NOISE
}
