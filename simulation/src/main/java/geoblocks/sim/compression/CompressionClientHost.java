package geoblocks.sim.compression;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimRegistry;
import java.util.List;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.simulator.run.LauncherComp;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * A simulated client machine running the real {@link ClientComponent} (which compresses and
 * decompresses each block) against its region's node: for each job it puts the file (policy
 * local, the job's compression mode), stats it for the stored size, gets it back checking every
 * byte, gets a 20-byte range of it (across the first block boundary, or the last byte of a
 * one-block file) checking that exactly the range's bytes arrive, right, then empties its slot's
 * stores. Records: {@code U|key|ms|storedBytes}, {@code D|key|ms}, {@code R|key} (the range came
 * back right), {@code E|key|error}; times are simulated milliseconds (the simulator does not advance time for
 * CPU work: the codecs cost nothing here). The last client to finish ends the simulation.
 */
public final class CompressionClientHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);
    private final Init init;
    private final Positive<ClientPort> client;
    private final List<String> out = SimRegistry.extraRecords();
    private int next;
    private int step;
    private long startedMs;

    public CompressionClientHost(Init init) {
        this.init = init;
        Component c = create(ClientComponent.class, new ClientComponent.ClientInit(init.self, init.node, init.nodeRegion,
                NodeSettings.defaults(), 3_600_000));
        connect(c.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(c.getNegative(Timer.class), timer, Channel.TWO_WAY);
        client = c.getPositive(ClientPort.class);
        onStart(s -> {
            ScheduleTimeout st = new ScheduleTimeout(init.startDelayMs);
            st.setTimeoutEvent(new Go(st));
            trigger(st, timer);
        });
        handle(timer, Go.class, g -> submit());
        handle(client, ClientPort.Result.class, this::onResult);
    }

    private void submit() {
        if (next == init.jobs.size()) {
            if (CompressionBoard.done(init.clients)) {
                LauncherComp.simulatorScheduler.shutdown();
            }
            return;
        }
        CompressionJob j = init.jobs.get(next);
        long op = next * 4L + step;
        if (step == 3) {
            range = new RangeCheck(Content.failing(j.key(), j.text()), rangeOf(j.size(), init.blockSize));
            trigger(new ClientPort.Get(op, j.name(), null, range, "", null, range.range), client);
            return;
        }
        startedMs = System.currentTimeMillis();
        switch (step) {
            case 0 -> trigger(new ClientPort.Put(op, null, Content.source(j.key(), j.size(), j.text()), j.name(), "local",
                    init.blockSize, "all", false, Compression.parse(j.mode())), client);
            case 1 -> trigger(new ClientPort.Stat(op, j.name()), client);
            default -> trigger(new ClientPort.Get(op, j.name(), null, Content.failing(j.key(), j.text())), client);
        }
    }

    private long uploadMs;

    private void onResult(ClientPort.Result r) {
        CompressionJob j = init.jobs.get(next);
        long ms = System.currentTimeMillis() - startedMs;
        if (!r.ok()) {
            out.add("E|" + j.recordKey() + "|" + (step == 0 ? "put" : step == 1 ? "stat" : step == 2 ? "get" : "ranged get")
                    + ": " + r.error());
            finishJob(j);
            return;
        }
        switch (step) {
            case 0 -> {
                uploadMs = ms;
                step = 1;
            }
            case 1 -> {
                long stored = ((ClientPort.FileStat) r.value()).manifest().storedSize();
                out.add("U|" + j.recordKey() + "|" + uploadMs + "|" + stored);
                step = 2;
            }
            case 2 -> {
                out.add("D|" + j.recordKey() + "|" + ms);
                step = 3;
            }
            default -> {
                String wrong = range.wrong();
                out.add(wrong == null ? "R|" + j.recordKey() : "E|" + j.recordKey() + "|ranged get: " + wrong);
                finishJob(j);
                return;
            }
        }
        submit();
    }

    private RangeCheck range;

    /** 20 bytes across the first block boundary, or the last byte when the file is one block. */
    static ClientPort.Range rangeOf(long size, int blockSize) {
        long first = Math.min(size - 1, blockSize - 10L);
        return new ClientPort.Range(first, Math.min(size - 1, first + 19));
    }

    /** A ranged get's sink: each byte checked by {@code inner}; records what offsets arrived. */
    private static final class RangeCheck implements geoblocks.blockstore.client.ByteSink {
        final geoblocks.blockstore.client.ByteSink inner;
        final ClientPort.Range range;
        long next;
        String wrong;

        RangeCheck(geoblocks.blockstore.client.ByteSink inner, ClientPort.Range range) {
            this.inner = inner;
            this.range = range;
            this.next = range.first();
        }

        @Override
        public void begin() throws java.io.IOException {
            inner.begin();
        }

        @Override
        public void write(long offset, byte[] data) throws java.io.IOException {
            if (offset != next || offset + data.length > range.last() + 1) {
                wrong = data.length + " bytes at " + offset + ", expected the range " + range + " from " + next;
            }
            next = offset + data.length;
            inner.write(offset, data);
        }

        /** Null when exactly the range arrived, else what was wrong. */
        String wrong() {
            return wrong != null ? wrong : next != range.last() + 1 ? "ended at " + next + ", range " + range : null;
        }
    }

    private void finishJob(CompressionJob j) {
        CompressionBoard.empty(j.slot());
        step = 0;
        next++;
        submit();
    }

    static final class Go extends Timeout {
        Go(ScheduleTimeout st) {
            super(st);
        }
    }

    /** Who the client is, its node, its jobs, and how many clients the simulation has. */
    public static final class Init extends se.sics.kompics.Init<CompressionClientHost> {
        final NetAddress self;
        final NetAddress node;
        final String nodeRegion;
        final List<CompressionJob> jobs;
        final int blockSize;
        final long startDelayMs;
        final int clients;

        Init(NetAddress self, NetAddress node, String nodeRegion, List<CompressionJob> jobs, int blockSize,
                long startDelayMs, int clients) {
            this.self = self;
            this.node = node;
            this.nodeRegion = nodeRegion;
            this.jobs = List.copyOf(jobs);
            this.blockSize = blockSize;
            this.startDelayMs = startDelayMs;
            this.clients = clients;
        }
    }
}
