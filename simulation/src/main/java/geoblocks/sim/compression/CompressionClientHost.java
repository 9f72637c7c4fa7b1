package geoblocks.sim.compression;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Compression;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimClientHost;
import java.io.IOException;
import se.sics.kompics.Positive;

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
public final class CompressionClientHost extends SimClientHost<CompressionNodes.Client> {
    private final Positive<ClientPort> client;
    private int next;
    private int step;
    private long startedMs;
    private long uploadMs;
    private RangeCheck range;

    public CompressionClientHost(HostInit<CompressionNodes.Client> init) {
        super(init);
        client = client(nodeOf(plan.region(), plan.regions()), plan.region(), 3_600_000);
    }

    @Override
    protected void start() {
        after(plan.startDelayMs());
    }

    @Override
    protected void wake() {
        submit();
    }

    private void submit() {
        if (next == plan.jobs().size()) {
            if (CompressionBoard.done(plan.clients())) {
                endSimulation();
            }
            return;
        }
        CompressionJob j = plan.jobs().get(next);
        long op = next * 4L + step;
        if (step == 3) {
            range = new RangeCheck(Content.failing(j.key(), j.text()), rangeOf(j.size(), plan.blockSize()));
            trigger(new ClientPort.Get(op, j.name(), null, range, "", null, range.range), client);
            return;
        }
        startedMs = now();
        switch (step) {
            case 0 -> trigger(new ClientPort.Put(op, null, Content.source(j.key(), j.size(), j.text()), j.name(), "local",
                    plan.blockSize(), "all", false, Compression.parse(j.mode())), client);
            case 1 -> trigger(new ClientPort.Stat(op, j.name()), client);
            default -> trigger(new ClientPort.Get(op, j.name(), null, Content.failing(j.key(), j.text())), client);
        }
    }

    @Override
    protected void onResult(ClientPort.Result r) {
        CompressionJob j = plan.jobs().get(next);
        long ms = now() - startedMs;
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

    private void finishJob(CompressionJob j) {
        CompressionBoard.empty(j.slot());
        step = 0;
        next++;
        submit();
    }

    /** 20 bytes across the first block boundary, or the last byte when the file is one block. */
    static ClientPort.Range rangeOf(long size, int blockSize) {
        long first = Math.min(size - 1, blockSize - 10L);
        return new ClientPort.Range(first, Math.min(size - 1, first + 19));
    }

    /** A ranged get's sink: each byte checked by {@code inner}; records what offsets arrived. */
    private static final class RangeCheck implements ByteSink {
        final ByteSink inner;
        final ClientPort.Range range;
        long next;
        String wrong;

        RangeCheck(ByteSink inner, ClientPort.Range range) {
            this.inner = inner;
            this.range = range;
            this.next = range.first();
        }

        @Override
        public void begin() throws IOException {
            inner.begin();
        }

        @Override
        public void write(long offset, byte[] data) throws IOException {
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
}
