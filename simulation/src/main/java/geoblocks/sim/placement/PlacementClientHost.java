package geoblocks.sim.placement;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.SimRegistry;
import java.nio.file.Path;
import java.util.List;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.simulator.run.LauncherComp;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * A simulated client machine running the real {@link ClientComponent} against the node of its
 * region, and a script: the uploader puts every job's file one after the other (then asks for its
 * manifest to record where the replicas landed); the downloader waits until all uploads are done
 * and gets every file one after the other; runs take turns ({@link PlacementBoard}). Times are
 * simulated milliseconds from request to result. Records go out as strings: {@code U|key|ms},
 * {@code R|key|block|replicas}, {@code D|key|ms}, {@code E|key|error}. The last run's downloader
 * ends the simulation.
 */
public final class PlacementClientHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final PlacementClientInit init;
    private final Positive<ClientPort> client;
    private final List<String> out;
    private int next;
    private long startedMs;
    private boolean statPending;
    private boolean running;

    public PlacementClientHost(PlacementClientInit init) {
        this.init = init;
        this.out = SimRegistry.extraRecords();
        Component c = create(ClientComponent.class, new ClientComponent.ClientInit(init.self, init.node, init.nodeRegion,
                NodeSettings.defaults(), 120_000));
        connect(c.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(c.getNegative(Timer.class), timer, Channel.TWO_WAY);
        client = c.getPositive(ClientPort.class);
        onStart(s -> {
            SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(init.startDelayMs, 100);
            spt.setTimeoutEvent(new Poll(spt));
            trigger(spt, timer);
        });
        handle(timer, Poll.class, p -> {
            if (!running && (init.upload ? PlacementBoard.mayUpload(init.run) : PlacementBoard.mayDownload(init.run))) {
                running = true;
                submit();
            }
        });
        handle(client, ClientPort.Result.class, this::onResult);
    }

    private void submit() {
        if (next == init.jobs.size()) {
            if (init.upload) {
                PlacementBoard.uploadsDone(init.run);
            } else {
                PlacementBoard.downloadsDone(init.run);
                if (init.last) {
                    LauncherComp.simulatorScheduler.shutdown();
                }
            }
            return;
        }
        PlacementJob j = init.jobs.get(next);
        startedMs = System.currentTimeMillis();
        if (init.upload) {
            trigger(new ClientPort.Put(next, Path.of(j.path()), j.name(), j.policy(), j.blockSize()), client);
        } else {
            trigger(new ClientPort.Get(next, j.name(), Path.of(init.downloadDir, j.name() + ".out")), client);
        }
    }

    private void onResult(ClientPort.Result r) {
        PlacementJob j = init.jobs.get(next);
        if (!r.ok()) {
            out.add("E|" + j.key() + "|" + (init.upload ? "upload: " : "download: ") + r.error());
        } else if (statPending) {
            List<Manifest.BlockRef> blocks = ((ClientPort.FileStat) r.value()).manifest().blocks();
            for (int b = 0; b < blocks.size(); b++) {
                out.add("R|" + j.key() + "|" + b + "|" + String.join(";", blocks.get(b).replicas()));
            }
        } else {
            long ms = System.currentTimeMillis() - startedMs;
            out.add((init.upload ? "U|" : "D|") + j.key() + "|" + ms);
            if (init.upload) {
                statPending = true;
                trigger(new ClientPort.Stat(next, j.name()), client);
                return;
            }
        }
        statPending = false;
        next++;
        submit();
    }

    static final class Poll extends Timeout {
        Poll(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    /** Who the client is, which node it talks to, its role, its jobs and when it starts. */
    public static final class PlacementClientInit extends Init<PlacementClientHost> {
        final NetAddress self;
        final NetAddress node;
        final String nodeRegion;
        final boolean upload;
        final List<PlacementJob> jobs;
        final long startDelayMs;
        final String downloadDir;
        final int run;
        final boolean last;

        public PlacementClientInit(NetAddress self, NetAddress node, String nodeRegion, boolean upload,
                List<PlacementJob> jobs, long startDelayMs, String downloadDir, int run, boolean last) {
            this.run = run;
            this.last = last;
            this.self = self;
            this.node = node;
            this.nodeRegion = nodeRegion;
            this.upload = upload;
            this.jobs = List.copyOf(jobs);
            this.startDelayMs = startDelayMs;
            this.downloadDir = downloadDir;
        }
    }
}
