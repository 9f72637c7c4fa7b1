package geoblocks.sim.harness;

/**
 * Keys of the simulator's result map through which samples leave the simulation's class loader.
 * Values are JDK types only (lists of strings and of double arrays), the only types both loaders
 * share.
 */
final class ResultKeys {
    static final String FLOWS = "geoblocks.sim.flows";          // List<String> "name\tkind"
    static final String FLOW_ROWS = "geoblocks.sim.flowRows";   // List<double[]> see Sampler
    static final String LINKS = "geoblocks.sim.links";          // List<String> link keys
    static final String LINK_ROWS = "geoblocks.sim.linkRows";   // List<double[]> see Sampler
    static final String LINK_TOTALS = "geoblocks.sim.linkTotals"; // List<double[]> per link
    static final String FAULTS = "geoblocks.sim.faults";        // List<String>
    static final String EXTRA = "geoblocks.sim.extra";          // List<String> scenario-specific rows

    private ResultKeys() {}
}
