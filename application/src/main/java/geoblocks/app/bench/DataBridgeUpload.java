package geoblocks.app.bench;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.node.GeoClient;
import geoblocks.sim.databridge.DataBridgePlan;
import geoblocks.sim.databridge.DataBridgeResult;
import geoblocks.sim.databridge.HomeCheck;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The two uploads of one size in {@code bench databridge --via client}, through the ClientPort calls of a client placed in the near region
 * (what the S3 gateway does inside the node):
 * <ul>
 *   <li>direct: put at the home node, policy local, ack all: the put returns when the home copy is
 *       durable, so the client waits until the object is home;</li>
 *   <li>redirected: put at the near node, policy local, ack local (the gateway's DataBridge store),
 *       then {@code move} to the home region (the gateway's migration: copies pulled as background
 *       traffic, then the manifest rewritten and the near copy dropped); home when the move is done.</li>
 * </ul>
 * Both are then checked with {@code stat} at the home node (every block held there and only there,
 * none pending); an upload that is not home fails the row. Times run from the start of the put.
 */
final class DataBridgeUpload implements DataBridgeBenchCommand.Uploads {
    private final GeoClient client;
    private final DataBridgePlan plan;

    DataBridgeUpload(GeoClient client, DataBridgePlan plan) {
        this.client = client;
        this.plan = plan;
    }

    @Override
    public DataBridgeResult direct(Path file, long size, double loss) {
        String name = "databridge-direct-" + size + "-" + loss;
        long t0 = System.nanoTime();
        try {
            client.put(plan.home(), file, name, "local", plan.blockSize(), "all", null);
            double waitMs = ms(t0);
            checkHome(name);
            client.delete(plan.home(), name);
            return new DataBridgeResult(DataBridgeResult.DIRECT, size, loss, waitMs, waitMs, "");
        } catch (IOException e) {
            return new DataBridgeResult(DataBridgeResult.DIRECT, size, loss, Double.NaN, Double.NaN, e.getMessage());
        }
    }

    @Override
    public DataBridgeResult redirected(Path file, long size, double loss) {
        String name = "databridge-redirect-" + size + "-" + loss;
        long t0 = System.nanoTime();
        double waitMs = Double.NaN;
        try {
            client.put(plan.near(), file, name, "local", plan.blockSize(), "local", null);
            waitMs = ms(t0);
            client.move(plan.near(), name, List.of(plan.home()));
            double homeMs = ms(t0);
            checkHome(name);
            client.delete(plan.home(), name);
            return new DataBridgeResult(DataBridgeResult.REDIRECT, size, loss, waitMs, homeMs, "");
        } catch (IOException e) {
            return new DataBridgeResult(DataBridgeResult.REDIRECT, size, loss, waitMs, Double.NaN, e.getMessage());
        }
    }

    private void checkHome(String name) throws IOException {
        ClientPort.FileStat st = client.statFull(plan.home(), name);
        if (!HomeCheck.isHome(st, List.of(plan.home()))) {
            throw new IOException(name + " is not home at " + plan.home() + " after its upload: "
                    + st.manifest().blocks());
        }
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }
}
