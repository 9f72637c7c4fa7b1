package geoblocks.sim.gc;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimClientHost;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.Positive;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;

/**
 * A simulated client machine of the block collection scenario: runs its script through the real
 * {@link ClientComponent} against its region's node, one operation at a time, until {@code stopMs};
 * then, from {@code verifyAtMs}, downloads every version it was acknowledged through the next
 * region's node, comparing every byte. Records {@code W|region|name|kind|outcome|version|key|error}
 * per put, create or abandoned put (outcome ok or failed), {@code M|region|name|targets|outcome|error}
 * per move and {@code G|region|name|version|ok|error} per verification read.
 */
public final class GcClientHost extends SimClientHost<GcNodes.Client> {
    private final Positive<ClientPort> client;
    private final Positive<ClientPort> remote;
    private final List<long[]> writtenKeys = new ArrayList<>();
    private final List<String[]> written = new ArrayList<>();
    private int next;
    private int verified;
    private long op;
    /** The script's operation under way (0: none), and the verification read under way (0: none). */
    private long scriptOp;
    private long verifyOp;
    private boolean verifying;
    private GcStep current;
    private String[] checking;

    public GcClientHost(HostInit<GcNodes.Client> init) {
        super(init);
        client = client(nodeOf(plan.region(), plan.regions()), plan.region(), 60_000);
        String verifyRegion = nextRegion(plan.region(), plan.regions());
        remote = client(nodeOf(verifyRegion, plan.regions()), verifyRegion, 60_000);
        handle(timer, Verify.class, v -> {
            verifying = true; // an operation still under way is not waited for (a move to a down region can take minutes)
            verifyNext();
        });
    }

    @Override
    protected void start() {
        if (!plan.script().isEmpty()) {
            after(plan.script().get(0).thinkMs());
        }
        schedule(plan.verifyAtMs(), Verify::new);
    }

    private void submit(KompicsEvent request) {
        trigger(request, client);
    }

    @Override
    protected void wake() {
        if (!verifying && next < plan.script().size() && now() < plan.stopMs()) {
            current = plan.script().get(next++);
            scriptOp = ++op;
            GcStep s = current;
            switch (s.kind()) {
                case PUT, CREATE -> submit(new ClientPort.Put(op, null, Content.source(s.key(), s.size()), s.name(),
                        s.policy(), GcNodes.BLOCK, s.ack(), s.kind() == GcStep.Kind.CREATE));
                case ABANDON -> submit(new ClientPort.Put(op, null, abandoning(Content.source(s.key(), s.size()),
                        s.abandonAt()), s.name(), s.policy(), GcNodes.BLOCK, s.ack(), false));
                case MOVE -> submit(new ClientPort.Move(op, s.name(), s.targets()));
                default -> throw new IllegalStateException(s.kind().toString());
            }
            return;
        }
        current = null;
    }

    /** {@code source} until byte {@code at}, then a failure: the client goes away mid-upload. */
    private static ByteSource abandoning(ByteSource source, long at) {
        return new ByteSource() {
            @Override
            public long size() {
                return source.size();
            }

            @Override
            public void read(long offset, ByteBuffer dst) throws IOException {
                if (offset + dst.remaining() > at) {
                    throw new IOException("the client went away");
                }
                source.read(offset, dst);
            }
        };
    }

    private void verifyNext() {
        if (verified >= written.size()) {
            return;
        }
        checking = written.get(verified);
        long key = writtenKeys.get(verified)[0];
        verified++;
        verifyOp = ++op;
        trigger(new ClientPort.Get(op, checking[0], null, Content.failing(key), checking[1]), remote);
    }

    @Override
    protected void onResult(ClientPort.Result r) {
        String error = r.ok() ? "" : r.error().replace('|', '/');
        if (r.op() == verifyOp && checking != null) {
            out.add("G|" + plan.region() + "|" + checking[0] + "|" + checking[1] + "|" + r.ok() + "|" + error);
            checking = null;
            verifyNext();
            return;
        }
        if (r.op() != scriptOp || current == null) {
            return; // the answer to an operation the verification did not wait for
        }
        GcStep s = current;
        scriptOp = 0;
        if (s.kind() == GcStep.Kind.MOVE) {
            out.add("M|" + plan.region() + "|" + s.name() + "|" + String.join(",", s.targets()) + "|"
                    + (r.ok() ? "ok" : "failed") + "|" + error);
        } else {
            String version = r.ok() ? ((ClientPort.Written) r.value()).version() : "";
            out.add("W|" + plan.region() + "|" + s.name() + "|" + s.kind() + "|" + (r.ok() ? "ok" : "failed") + "|"
                    + version + "|" + s.key() + "|" + error);
            if (r.ok()) {
                written.add(new String[] {s.name(), version});
                writtenKeys.add(new long[] {s.key()});
            }
        }
        if (!verifying) {
            after(next < plan.script().size() ? plan.script().get(next).thinkMs() : 1);
        }
    }

    static final class Verify extends Timeout {
        Verify(ScheduleTimeout st) {
            super(st);
        }
    }
}
