package geoblocks.sim.consistency;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.meta.MetaLayoutStore;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.SimClientHost;
import java.io.IOException;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;
import se.sics.kompics.Positive;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;

/**
 * The operator of the membership scenario: through the real client component, at each
 * {@link Change#atMs} it asks one node to apply a cluster layout change ({@code client cluster add |
 * drain}), and asks again every second until the node applies it (a change is refused while a
 * region has not reported the current layout). At {@code finalAtMs} it reads every node's layout
 * from its metadata engine and the placements of every version its first node keeps.
 *
 * <p>Records: {@code L|change|action|region|callMs|returnMs|ok|version|error} per attempt,
 * {@code F|region|version|digest|states} per node at the end, and
 * {@code P|name|version|createdMillis|regions|head|uploadedAt|policy|size|locEpoch|bytesAt} for every kept
 * version with blocks (the regions holding any of its blocks, joined by {@code ;}; head: whether it is
 * the name's current version; locEpoch: how often its homes changed, by moves or re-replication;
 * bytesAt: {@code region=bytes} joined by {@code ;}, the bytes of its blocks' copies at each region,
 * as the rebalancer counts them).
 */
public final class OperatorHost extends SimClientHost<ConsistencyNodes.Operator> {
    private final Positive<ClientPort> client;
    private int current = -1;
    private long op;
    private long calledMs;

    /** A change: at {@code atMs}, {@code action} ("add", "drain", "remove") of {@code region} ({@code address} for add). */
    public record Change(long atMs, String action, String region, String address) implements Serializable {}

    public OperatorHost(HostInit<ConsistencyNodes.Operator> init) {
        super(init);
        client = client(NetAddress.parse(plan.node()), "operator", 10_000);
        handle(timer, Go.class, g -> {
            if (g.change < 0) {
                finish();
            } else {
                apply(g.change);
            }
        });
    }

    @Override
    protected void start() {
        for (int i = 0; i < plan.changes().size(); i++) {
            at(plan.changes().get(i).atMs(), i);
        }
        at(plan.finalAtMs(), -1);
    }

    private void at(long ms, int change) {
        schedule(Math.max(1, ms - now()), st -> new Go(st, change));
    }

    private void apply(int i) {
        Change c = plan.changes().get(i);
        current = i;
        calledMs = now();
        trigger(new ClientPort.Cluster(++op, c.action(), c.region(), c.address() == null ? "" : c.address(), "", 0,
                false), client);
    }

    @Override
    protected void onResult(ClientPort.Result r) {
        Change c = plan.changes().get(current);
        long version = -1;
        if (r.ok()) {
            try {
                version = LayoutCodec.decode(((ClientOp.ClusterReply) r.value()).layout()).version();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        out.add("L|" + current + "|" + c.action() + "|" + c.region() + "|" + calledMs + "|" + now()
                + "|" + r.ok() + "|" + version + "|" + (r.ok() ? "" : r.error().replace('|', '/')));
        if (!r.ok() && now() < plan.finalAtMs() - 2_000) {
            at(now() + 1_000, current);
        }
    }

    private void finish() {
        for (Map.Entry<String, ManifestStore> e : ConsistencyNodes.STORES.entrySet()) {
            try {
                Layout l = MetaLayoutStore.read(e.getValue().engine());
                StringBuilder states = new StringBuilder();
                l.regions().forEach((id, g) -> states.append(states.length() == 0 ? "" : ";").append(id).append('=')
                        .append(g.state().label()));
                out.add("F|" + e.getKey() + "|" + l.version() + "|" + Long.toHexString(l.digest()) + "|" + states);
            } catch (IOException x) {
                out.add("F|" + e.getKey() + "|-1|0|" + x.getMessage().replace('|', '/'));
            }
        }
        ManifestStore first = ConsistencyNodes.STORES.values().iterator().next();
        for (ManifestHistory h : first.histories("", Integer.MAX_VALUE)) {
            for (int i = 0; i < h.versions().size(); i++) {
                Manifest m = h.versions().get(i);
                if (m.deleted() || m.blocks().isEmpty()) {
                    continue;
                }
                Map<String, Long> bytes = new TreeMap<>();
                m.blocks().forEach(b -> b.replicas().forEach(r -> bytes.merge(r, (long) b.length(), Long::sum)));
                StringBuilder at = new StringBuilder();
                bytes.forEach((r, n) -> at.append(at.length() == 0 ? "" : ";").append(r).append('=').append(n));
                out.add("P|" + m.name() + "|" + m.version().id() + "|" + m.createdMillis() + "|" + String.join(";", bytes.keySet())
                        + "|" + (i == h.versions().size() - 1) + "|" + m.uploadedAt() + "|" + m.policy() + "|" + m.size() + "|" + m.locEpoch()
                        + "|" + at);
            }
        }
    }

    static final class Go extends Timeout {
        final int change;

        Go(ScheduleTimeout st, int change) {
            super(st);
            this.change = change;
        }
    }
}
