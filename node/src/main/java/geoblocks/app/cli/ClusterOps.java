package geoblocks.app.cli;

import geoblocks.app.GeoClient;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.core.layout.Region;
import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.ClientOp.RegionReport;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;

/**
 * {@code client --at R cluster show | add REGION HOST:PORT | drain REGION | remove REGION}: the
 * cluster layout as the node of R holds it, and changes applied there (the node spreads them to
 * every member).
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "Show or change the cluster layout (regions, addresses, states; owners of names).",
        subcommands = {ClusterOps.Show.class, ClusterOps.Add.class, ClusterOps.Set.class, ClusterOps.Drain.class, ClusterOps.Remove.class})
final class ClusterOps implements Runnable {
    @ParentCommand ClientCommand parent;
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing command: show, add, drain or remove");
    }

    int send(String action, String region, String address, String zone, long capacity, boolean force, boolean json)
            throws Exception {
        try (GeoClient c = parent.open()) {
            ClusterReply r = c.cluster(parent.at, action, region, address, zone, capacity, force);
            for (String w : r.warnings()) {
                System.err.println("warning: " + w);
            }
            System.out.println(json ? json(r) : text(parent.at, r));
        }
        return 0;
    }

    static String text(String at, ClusterReply r) throws java.io.IOException {
        Layout l = LayoutCodec.decode(r.layout());
        Map<String, RegionReport> reports = new TreeMap<>();
        r.regions().forEach(g -> reports.put(g.region(), g));
        StringBuilder s = new StringBuilder(String.format("cluster layout version %d (as node %s holds it)%n", l.version(), at));
        s.append(String.format("  %-12s %-9s %-22s %-12s %10s %9s %9s %14s %9s %12s%n", "REGION", "STATE", "ADDRESS",
                "ZONE", "CAPACITY", "REPORTED", "REPLICAS", "BYTES", "TO-DRAIN", "SHORT"));
        for (Region g : l.regions().values()) {
            RegionReport rep = reports.get(g.id());
            s.append(String.format("  %-12s %-9s %-22s %-12s %10s %9s %9d %14d %9s %12d%n", g.id(), g.state().label(),
                    g.address(), g.zone(), g.capacityBytes() == 0 ? "-" : geoblocks.app.Sizes.human(g.capacityBytes()),
                    rep == null || rep.reportedVersion() < 0 ? "-" : Long.toString(rep.reportedVersion()),
                    rep == null ? 0 : rep.replicas(), rep == null ? 0 : rep.bytes(),
                    rep == null || rep.pendingVersions() < 0 ? "-" : Long.toString(rep.pendingVersions()),
                    rep == null ? 0 : rep.shortBytes()));
        }
        s.append("owners: ").append(l.owners());
        if (l.ownersSince() > 0) {
            s.append(" since version ").append(l.ownersSince()).append(" (before: ").append(l.ownersBefore()).append(')');
        }
        s.append(String.format("%n(REPORTED: the layout version each region last reported to this node; REPLICAS, BYTES:"
                + " live replicas each region holds, as this node's manifests say; TO-DRAIN: kept versions, current or"
                + " earlier, with a copy at a draining region, as this node's last pass counted them: it may be removed at"
                + " 0; SHORT: bytes a region lacks of its share of spread copies, which rebalancing moves to it)"));
        return s.toString();
    }

    /** The rebalancing line of {@code status}: what is left to drain off and to fill, as the node's last pass counted. */
    static String rebalanceText(ClusterReply r) {
        StringBuilder drain = new StringBuilder();
        StringBuilder fill = new StringBuilder();
        for (RegionReport g : r.regions()) {
            if (g.pendingVersions() >= 0) {
                drain.append(drain.length() == 0 ? "" : ", ").append(g.region()).append(' ').append(g.pendingVersions())
                        .append(" kept versions");
            }
            if (g.shortBytes() > 0) {
                fill.append(fill.length() == 0 ? "" : ", ").append(g.region()).append(' ')
                        .append(geoblocks.app.Sizes.human(g.shortBytes()));
            }
        }
        return "rebalance: to drain off " + (drain.length() == 0 ? "nothing" : drain) + "; short of their share "
                + (fill.length() == 0 ? "none" : fill);
    }

    /** As {@link #rebalanceText}, JSON: {@code {"toDrain":{region:versions},"shortBytes":{region:bytes}}}. */
    static String rebalanceJson(ClusterReply r) {
        StringBuilder drain = new StringBuilder();
        StringBuilder fill = new StringBuilder();
        for (RegionReport g : r.regions()) {
            if (g.pendingVersions() >= 0) {
                drain.append(drain.length() == 0 ? "" : ",").append(Json.str(g.region())).append(':').append(g.pendingVersions());
            }
            if (g.shortBytes() > 0) {
                fill.append(fill.length() == 0 ? "" : ",").append(Json.str(g.region())).append(':').append(g.shortBytes());
            }
        }
        return "{\"toDrain\":{" + drain + "},\"shortBytes\":{" + fill + "}}";
    }

    static String json(ClusterReply r) throws java.io.IOException {
        Layout l = LayoutCodec.decode(r.layout());
        Map<String, RegionReport> reports = new TreeMap<>();
        r.regions().forEach(g -> reports.put(g.region(), g));
        StringBuilder s = new StringBuilder("{\"version\":").append(l.version()).append(",\"regions\":[");
        boolean first = true;
        for (Region g : l.regions().values()) {
            RegionReport rep = reports.get(g.id());
            s.append(first ? "" : ",").append("{\"region\":").append(Json.str(g.id()))
                    .append(",\"state\":").append(Json.str(g.state().label()))
                    .append(",\"address\":").append(Json.str(g.address()))
                    .append(",\"zone\":").append(Json.str(g.zone()))
                    .append(",\"capacityBytes\":").append(g.capacityBytes())
                    .append(",\"reportedVersion\":").append(rep == null ? -1 : rep.reportedVersion())
                    .append(",\"replicas\":").append(rep == null ? 0 : rep.replicas())
                    .append(",\"bytes\":").append(rep == null ? 0 : rep.bytes())
                    .append(",\"pendingVersions\":").append(rep == null ? -1 : rep.pendingVersions())
                    .append(",\"shortBytes\":").append(rep == null ? 0 : rep.shortBytes()).append('}');
            first = false;
        }
        s.append("],\"owners\":[");
        for (int i = 0; i < l.owners().size(); i++) {
            s.append(i == 0 ? "" : ",").append(Json.str(l.owners().get(i)));
        }
        s.append("],\"ownersSince\":").append(l.ownersSince()).append(",\"warnings\":[");
        for (int i = 0; i < r.warnings().size(); i++) {
            s.append(i == 0 ? "" : ",").append(Json.str(r.warnings().get(i)));
        }
        return s.append("]}").toString();
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Print the layout: regions, states, owners.")
    static final class Show implements Callable<Integer> {
        @ParentCommand ClusterOps parent;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            return parent.send("show", "", "", "", 0, false, json);
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Add a region (its node at HOST:PORT) as active: it takes new replicas and owns names.")
    static final class Add implements Callable<Integer> {
        @ParentCommand ClusterOps parent;
        @Parameters(index = "0", paramLabel = "REGION") String region;
        @Parameters(index = "1", paramLabel = "HOST:PORT") String address;
        @Mixin RegionSettings settings;

        @Override
        public Integer call() throws Exception {
            return parent.send("add", region, address, settings.zone(), settings.capacityBytes(0), settings.force, settings.json);
        }
    }

    /** The options of {@code add} and {@code set}: a region's zone and capacity, --force, --json. */
    static final class RegionSettings {
        @Option(names = "--zone", paramLabel = "ZONE", description = "Its zone (add: default the region id).") String zone;
        @Option(names = "--capacity", paramLabel = "SIZE", description = "Its declared capacity, e.g. 4T (add: default"
                + " not declared; set: 0 for none).")
        String capacity;
        @Option(names = "--force", description = "Apply even if a region has not reported the current layout version.")
        boolean force;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        String zone() {
            return zone == null ? "" : zone;
        }

        long capacityBytes(long otherwise) {
            return capacity == null ? otherwise : geoblocks.app.Sizes.parse(capacity);
        }
    }

    @Command(name = "set", mixinStandardHelpOptions = true,
            description = "Change a region's zone or declared capacity (e.g. to put regions of the static config in zones).")
    static final class Set implements Callable<Integer> {
        @ParentCommand ClusterOps parent;
        @Parameters(paramLabel = "REGION") String region;
        @Mixin RegionSettings settings;

        @Override
        public Integer call() throws Exception {
            if (settings.zone == null && settings.capacity == null) {
                System.err.println("error: cluster set needs --zone or --capacity");
                return 2;
            }
            return parent.send("set", region, "", settings.zone(), settings.capacityBytes(-1), settings.force, settings.json);
        }
    }

    @Command(name = "drain", mixinStandardHelpOptions = true,
            description = "Stop placing new replicas on a region and hand the names it owns to the other active regions.")
    static final class Drain implements Callable<Integer> {
        @ParentCommand ClusterOps parent;
        @Parameters(paramLabel = "REGION") String region;
        @Option(names = "--force", description = "Apply even if a region has not reported the current layout version.")
        boolean force;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            return parent.send("drain", region, "", "", 0, force, json);
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = "Take a drained region out of the cluster (--force: also an active or not yet empty one).")
    static final class Remove implements Callable<Integer> {
        @ParentCommand ClusterOps parent;
        @Parameters(paramLabel = "REGION") String region;
        @Option(names = "--force", description = "Remove even if the region is active, still holds replicas, or a"
                + " region has not reported the current layout version.")
        boolean force;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            return parent.send("remove", region, "", "", 0, force, json);
        }
    }
}
