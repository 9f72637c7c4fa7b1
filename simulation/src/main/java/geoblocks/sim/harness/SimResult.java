package geoblocks.sim.harness;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What one simulation run produced: flow and link samples in time order, link totals, extra
 * scenario-specific rows, faults raised by components, and the wall-clock time it took.
 */
public record SimResult(List<FlowSample> flows, List<LinkSample> links, List<LinkTotals> linkTotals,
        List<String> extra, List<String> faults, long wallMs) {

    /** The samples of one flow, in time order. */
    public List<FlowSample> flow(String name) {
        return flows.stream().filter(s -> s.flow().equals(name)).collect(Collectors.toList());
    }

    /** Names of the flows, in the order they first appeared. */
    public List<String> flowNames() {
        return flows.stream().map(FlowSample::flow).distinct().collect(Collectors.toList());
    }

    public List<LinkSample> link(String key) {
        return links.stream().filter(s -> s.link().equals(key)).collect(Collectors.toList());
    }
}
