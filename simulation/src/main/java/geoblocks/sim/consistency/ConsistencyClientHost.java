package geoblocks.sim.consistency;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimClientHost;
import java.util.ArrayList;
import java.util.List;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.Positive;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;

/**
 * A simulated client machine in one region: runs its script through the real
 * {@link ClientComponent} against that region's node, one operation at a time, and records what it
 * saw (simulated ms of call and return, outcome, version). After every acknowledged write it reads
 * the name's versions at the same region (read-your-writes). From {@code verifyAtMs} on it
 * downloads every version it wrote and that was acknowledged through the next region's node (a
 * second client component), comparing every byte: the blocks of a version placed with the policy
 * {@code local} then come from another region. A write still unanswered then is recorded as of
 * unknown outcome (a read: as an error) and its late answer ignored.
 *
 * <p>Records: {@code W|region|name|kind|callMs|returnMs|outcome|version|key|error} (outcome: ok,
 * exists, refused, failed, unknown), {@code R|region|name|why|callMs|returnMs|head} (why: {@code read},
 * or {@code ryw:VERSION} after the write of VERSION; head: the newest version id, marked
 * {@code (deleted)} for a delete, {@code none}, or {@code error:...}), {@code G|region|at|name|version|ok|error}.
 */
public final class ConsistencyClientHost extends SimClientHost<ConsistencyNodes.Client> {
    private final Positive<ClientPort> client;
    /** The next region's node, for verification reads there. */
    private final Positive<ClientPort> remote;
    private final String remoteRegion;
    private final List<Acked> written = new ArrayList<>();
    private int next;
    private int verified;
    private long op;
    private long calledMs;
    private Step current;
    private String readWhy;
    private Acked checking;
    /** The op whose result is awaited (a result of any other op was given up on, and is ignored). */
    private long awaited;
    /** True while a request of the script is unanswered. */
    private boolean outstanding;
    private boolean verifying;

    public ConsistencyClientHost(HostInit<ConsistencyNodes.Client> init) {
        super(init);
        client = client(nodeOf(plan.region(), plan.regions()), plan.region(), plan.timeoutMs());
        remoteRegion = nextRegion(plan.region(), plan.regions());
        remote = client(nodeOf(remoteRegion, plan.regions()), remoteRegion, plan.timeoutMs());
        handle(timer, VerifyNow.class, v -> giveUpAndVerify());
    }

    @Override
    protected void start() {
        after(plan.script().isEmpty() ? plan.verifyAtMs() : plan.script().get(0).thinkMs());
        if (plan.verifyAtMs() < Long.MAX_VALUE) {
            schedule(Math.max(1, plan.verifyAtMs() - now()), VerifyNow::new);
        }
    }

    private void submit(KompicsEvent request) {
        calledMs = now();
        awaited = op;
        outstanding = true;
        trigger(request, client);
    }

    /**
     * At the verification time, a write or read still unanswered (its node died with it, say, and
     * the client's timeout runs past the end) is recorded as of unknown outcome (a read: as an error)
     * and given up on, so that verification starts anyway.
     */
    private void giveUpAndVerify() {
        if (verifying || !outstanding) {
            return; // verifying already, or between steps: the script's own flow starts verifying
        }
        outstanding = false;
        String why = "no answer by the verification time";
        if (readWhy != null) {
            out.add("R|" + plan.region() + "|" + readWhy + "|" + calledMs + "|" + now() + "|error:" + why);
        } else {
            out.add("W|" + plan.region() + "|" + current.name() + "|" + current.kind() + "|" + calledMs + "|" + now()
                    + "|unknown||" + current.key() + "|" + why);
        }
        readWhy = null;
        current = null;
        next = plan.script().size();
        verifyNext();
    }

    /** Runs the next step of the script, or of the verification once the script is done. */
    @Override
    protected void wake() {
        if (verifying) {
            return; // the verification time gave up on an unanswered step and verifies already
        }
        if (next < plan.script().size() && now() < plan.stopWritesMs()) {
            current = plan.script().get(next++);
            op++;
            switch (current.kind()) {
                case PUT, CREATE -> submit(new ClientPort.Put(op, null, Content.source(current.key(), current.size()),
                        current.name(), current.policy(), ConsistencyNodes.BLOCK, "all", current.kind() == Step.Kind.CREATE));
                case DELETE -> submit(new ClientPort.Delete(op, current.name()));
                case READ -> read(current.name(), "read");
                default -> throw new IllegalStateException(current.kind().toString());
            }
            return;
        }
        current = null;
        if (now() < plan.verifyAtMs()) {
            after(plan.verifyAtMs() - now());
            return;
        }
        verifyNext();
    }

    private void read(String name, String why) {
        readWhy = name + "|" + why;
        op++;
        submit(new ClientPort.Versions(op, name));
    }

    /** Downloads the next acknowledged version this client wrote, at the next region. */
    private void verifyNext() {
        verifying = true;
        if (verified >= written.size()) {
            return;
        }
        checking = written.get(verified++);
        op++;
        awaited = op;
        calledMs = now();
        trigger(new ClientPort.Get(op, checking.name(), null, Content.failing(checking.key()), checking.version()),
                remote);
    }

    @Override
    protected void onResult(ClientPort.Result r) {
        if (r.op() != awaited) {
            return; // given up on at the verification time
        }
        outstanding = false;
        long ret = now();
        if (readWhy != null) {
            String head = !r.ok() ? (r.code() == FailureCode.NOT_FOUND ? "none" : "error:" + r.error().replace('|', '/'))
                    : headOf(r.value());
            out.add("R|" + plan.region() + "|" + readWhy + "|" + calledMs + "|" + ret + "|" + head);
            readWhy = null;
            after(current == null ? 1 : nextThink());
            return;
        }
        if (checking != null) {
            out.add("G|" + plan.region() + "|" + remoteRegion + "|" + checking.name() + "|" + checking.version() + "|"
                    + r.ok() + "|" + (r.ok() ? "" : r.error().replace('|', '/')));
            checking = null;
            verifyNext();
            return;
        }
        Step s = current;
        String outcome = outcome(s, r);
        String version = r.ok() ? ((ClientPort.Written) r.value()).version() : "";
        out.add("W|" + plan.region() + "|" + s.name() + "|" + s.kind() + "|" + calledMs + "|" + ret + "|" + outcome + "|"
                + version + "|" + s.key() + "|" + (r.ok() ? "" : r.error().replace('|', '/')));
        if (r.ok()) {
            if (s.kind() != Step.Kind.DELETE) {
                written.add(new Acked(s.name(), version, s.key()));
            }
            read(s.name(), "ryw:" + version);
            return;
        }
        after(nextThink());
    }

    private long nextThink() {
        return next < plan.script().size() ? plan.script().get(next).thinkMs() : 1;
    }

    @SuppressWarnings("unchecked")
    private static String headOf(Object value) {
        List<VersionEntry> vs = (List<VersionEntry>) value;
        return vs.isEmpty() ? "none" : vs.get(0).id() + (vs.get(0).deleted() ? "(deleted)" : "");
    }

    /** What a write's result says happened: ok, exists (a create lost), unknown (may have happened), refused or failed. */
    static String outcome(Step s, ClientPort.Result r) {
        if (r.ok()) {
            return "ok";
        }
        if (r.code() == FailureCode.OUTCOME_UNKNOWN) {
            return "unknown";
        }
        if (s.kind() == Step.Kind.CREATE && r.code() == FailureCode.EXISTS) {
            return "exists";
        }
        return s.kind() == Step.Kind.CREATE ? "refused" : "failed";
    }

    /** An acknowledged put or create: the version it made and the key of its content. */
    private record Acked(String name, String version, long key) {}

    static final class VerifyNow extends Timeout {
        VerifyNow(ScheduleTimeout st) {
            super(st);
        }
    }
}
