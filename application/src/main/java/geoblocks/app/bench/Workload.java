package geoblocks.app.bench;

/** One storage access pattern of {@code bench storage}, in the order they run (the writes create what the reads read). */
public enum Workload {
    SEQ_WRITE("seq_write", true, false),
    SEQ_READ("seq_read", false, false),
    RAND_WRITE("rand_write", true, true),
    RAND_READ("rand_read", false, true);

    private final String label;
    private final boolean write;
    private final boolean random;

    Workload(String label, boolean write, boolean random) {
        this.label = label;
        this.write = write;
        this.random = random;
    }

    public String label() {
        return label;
    }

    public boolean write() {
        return write;
    }

    public boolean random() {
        return random;
    }
}
