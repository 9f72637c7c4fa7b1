package geoblocks.node.admin;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.core.layout.Region;
import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.ClientOp.RegionReport;
import geoblocks.node.http.JsonWriter;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's answer to a {@code cluster} request as JSON (the admin API's {@code Cluster} schema, and
 * {@code client cluster ... --json}): the layout version, the cluster version, each region with its state, address, zone,
 * capacity and what this node last heard of it, the owners and the warnings of a change.
 */
public final class ClusterJson {
    private ClusterJson() {}

    public static String render(ClusterReply r) throws IOException {
        Layout l = LayoutCodec.decode(r.layout());
        Map<String, RegionReport> reports = new TreeMap<>();
        r.regions().forEach(g -> reports.put(g.region(), g));
        JsonWriter w = new JsonWriter().begin().field("version", l.version())
                .field("clusterVersion", l.clusterVersion().toString()).name("regions").beginArray();
        for (Region g : l.regions().values()) {
            RegionReport rep = reports.get(g.id());
            w.begin().field("region", g.id()).field("state", g.state().label()).field("address", g.address())
                    .field("zone", g.zone()).field("capacityBytes", g.capacityBytes())
                    .field("reportedVersion", rep == null ? -1 : rep.reportedVersion())
                    .field("replicas", rep == null ? 0 : rep.replicas())
                    .field("bytes", rep == null ? 0 : rep.bytes())
                    .field("pendingVersions", rep == null ? -1 : rep.pendingVersions())
                    .field("shortBytes", rep == null ? 0 : rep.shortBytes()).field("key", g.key())
                    .field("previousKey", g.previousKey()).end();
        }
        w.endArray().name("owners").beginArray();
        l.owners().forEach(w::value);
        w.endArray().field("ownersSince", l.ownersSince()).name("ownersBefore").beginArray();
        l.ownersBefore().forEach(w::value);
        w.endArray().name("warnings").beginArray();
        r.warnings().forEach(w::value);
        return w.endArray().end().toString();
    }
}
