package geoblocks.node.cli;

import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.ClientOp.RegionReport;
import geoblocks.node.AdminClient;
import geoblocks.node.Sizes;
import geoblocks.node.s3.MiniJson;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code client --at R cluster show | add REGION HOST:PORT | set | drain REGION | remove REGION}: the
 * cluster layout as the node of R holds it, and changes applied there (the node spreads them to
 * every member), through the node's admin API with an admin token.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "Show or change the cluster layout (regions, addresses, states; owners of names).",
        subcommands = {ClusterOps.Show.class, ClusterOps.Add.class, ClusterOps.Set.class, ClusterOps.Drain.class,
            ClusterOps.Remove.class, ClusterOps.Rekey.class, ClusterOps.RetireKey.class, ClusterOps.Finalize.class})
final class ClusterOps implements Runnable {
    @ParentCommand ClientCommand parent;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: show, add, drain or remove");
    }

    /**
     * Sends the request to the node's admin API (an admin token is needed, see {@link AdminClient}) and
     * prints the layout it answers: text, or the API's JSON with {@code json}.
     */
    int send(String action, String region, String address, String zone, long capacity, boolean force, boolean json)
            throws Exception {
        return send(action, region, address, zone, capacity, force, "", json);
    }

    int send(String action, String region, String address, String zone, long capacity, boolean force, String key,
            boolean json) throws Exception {
        AdminClient admin = parent.admin();
        String answer;
        if (action.equals("show")) {
            answer = admin.call("GET", "/cluster", null);
        } else {
            answer = admin.call("POST", "/cluster", AdminClient.clusterChange(action, region, address, zone, capacity, force, key));
        }
        return show(answer, json);
    }

    /** Prints the admin API's cluster document: its warnings on stderr, then it as JSON or as the table. */
    int show(String answer, boolean json) {
        Map<?, ?> doc = (Map<?, ?>) MiniJson.parse(answer);
        for (Object w : (List<?>) doc.get("warnings")) {
            System.err.println("warning: " + w);
        }
        System.out.println(json ? answer : text(parent.at, doc));
        return 0;
    }

    private static long num(Map<?, ?> m, String k) {
        return ((Number) m.get(k)).longValue();
    }

    /** The admin API's cluster document ({@code ClusterJson}) as the table {@code cluster show} prints. */
    static String text(String at, Map<?, ?> doc) {
        StringBuilder s = new StringBuilder(String.format("cluster layout version %d (as node %s holds it), cluster version %s%n",
                num(doc, "version"), at, doc.get("clusterVersion")));
        s.append(String.format("  %-12s %-9s %-22s %-12s %10s %9s %9s %14s %9s %12s%n", "REGION", "STATE", "ADDRESS",
                "ZONE", "CAPACITY", "REPORTED", "REPLICAS", "BYTES", "TO-DRAIN", "SHORT"));
        for (Object o : (List<?>) doc.get("regions")) {
            Map<?, ?> g = (Map<?, ?>) o;
            long capacity = num(g, "capacityBytes");
            long reported = num(g, "reportedVersion");
            long pending = num(g, "pendingVersions");
            s.append(String.format("  %-12s %-9s %-22s %-12s %10s %9s %9d %14d %9s %12d%n", g.get("region"), g.get("state"),
                    g.get("address"), g.get("zone"), capacity == 0 ? "-" : Sizes.human(capacity),
                    reported < 0 ? "-" : Long.toString(reported), num(g, "replicas"), num(g, "bytes"),
                    pending < 0 ? "-" : Long.toString(pending), num(g, "shortBytes")));
        }
        s.append("owners: ").append(doc.get("owners"));
        if (num(doc, "ownersSince") > 0) {
            s.append(" since version ").append(num(doc, "ownersSince")).append(" (before: ").append(doc.get("ownersBefore"))
                    .append(')');
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
                        .append(Sizes.human(g.shortBytes()));
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
        @Option(names = "--key", paramLabel = "ed25519:KEY", description = "The new node's public key (it prints it at"
                + " start; DATA/node.key): its peers then refuse any connection claiming HOST:PORT without it. Required"
                + " when the cluster's nodes have keys.")
        String key;
        @Mixin RegionSettings settings;

        @Override
        public Integer call() throws Exception {
            return parent.send("add", region, address, settings.zone(), settings.capacityBytes(0), settings.force,
                    key == null ? "" : key, settings.json);
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
            return capacity == null ? otherwise : Sizes.parse(capacity);
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

    @Command(name = "rekey", mixinStandardHelpOptions = true,
            description = "Rotate the node key of the --at node without downtime: it makes a new key and names it in the"
                    + " layout, its current key still accepted, and signs with the new one once every member has it."
                    + " Then `cluster retire-key REGION`.")
    static final class Rekey implements Callable<Integer> {
        @ParentCommand ClusterOps parent;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            return parent.show(parent.parent.admin().call("POST", "/node-key", null), json);
        }
    }

    @Command(name = "retire-key", mixinStandardHelpOptions = true,
            description = "End a key rotation: stop accepting the region's previous node key (once every member reported"
                    + " the layout with the new one).")
    static final class RetireKey implements Callable<Integer> {
        @ParentCommand ClusterOps parent;
        @Parameters(paramLabel = "REGION") String region;
        @Option(names = "--force", description = "Apply even if a region has not reported the current layout version.")
        boolean force;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            return parent.send("retire-key", region, "", "", -1, force, json);
        }
    }

    @Command(name = "finalize", mixinStandardHelpOptions = true,
            description = "Raise the cluster version to the release the node runs, once every member runs it and is up:"
                    + " what that release stores or sends that older ones cannot read switches on, and nodes refuse peers"
                    + " of an older release from then on. Until then any region may go back to the previous release."
                    + " It never falls (see docs/upgrading.md).")
    static final class Finalize implements Callable<Integer> {
        @ParentCommand ClusterOps parent;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            return parent.send("finalize", "", "", "", -1, false, json);
        }
    }
}
