package geoblocks.sim.harness;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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
 * The base of the simulator's client machines: a simulated host (it requires Network and Timer)
 * that runs the production {@link ClientComponent}, unchanged, toward one or more nodes
 * ({@link #client}), wakes on its own timer ({@link #after}, {@link #every}) and writes its records
 * to {@link SimRegistry#extraRecords()}. Its {@link HostInit} is its address and its {@link Plan}, the
 * scenario's serializable factory record, which the host reads as its settings. A scenario's host
 * keeps only its script: what it does at {@link #start()}, on each {@link #wake()} and on each
 * client's {@link #onResult}.
 *
 * <p>Handlers are subscribed and children created in constructors, as in any Kompics component:
 * the start and wake handlers here, each client and its result handler when {@link #client} creates
 * it (so call it from the subclass's constructor: a child created later would not start with the
 * host). These handlers call the subclass only when events arrive, after its constructor has run.
 * Timers of other kinds are the subclass's own {@link Timeout}s, set with {@link #schedule} and
 * handled in its constructor.
 *
 * @param <P> the plan: the scenario's factory record this host was started from
 */
public abstract class SimClientHost<P extends SimClientHost.Plan> extends ComponentDefinition {
    protected final Positive<Network> net = requires(Network.class);
    protected final Positive<Timer> timer = requires(Timer.class);

    protected final NetAddress self;
    protected final P plan;
    /** The simulation's records, where this host writes its own. */
    protected final List<String> out = SimRegistry.extraRecords();

    protected SimClientHost(HostInit<P> init) {
        this.self = init.self;
        this.plan = init.plan;
        onStart(s -> start());
        handle(timer, Wake.class, w -> wake());
    }

    /** At the host's start: typically sets its first timer. */
    protected abstract void start();

    /** When a timer set with {@link #after} or {@link #every} fires (a host that sets neither need not override it). */
    protected void wake() {}

    /** A result of any of the host's clients. */
    protected abstract void onResult(ClientPort.Result r);

    /**
     * A new production client toward {@code node} of {@code region} over the host's network, its
     * results delivered to {@link #onResult}; {@code timeoutMs}: its request timeout.
     */
    protected final Positive<ClientPort> client(NetAddress node, String region, long timeoutMs) {
        return client(node, region, timeoutMs, net);
    }

    /** As {@link #client(NetAddress, String, long)}, over {@code network} (a transport the host runs, say). */
    protected final Positive<ClientPort> client(NetAddress node, String region, long timeoutMs, Positive<Network> network) {
        Component c = create(ClientComponent.class, new ClientComponent.ClientInit(self, node, region,
                NodeSettings.defaults(), timeoutMs));
        connect(c.getNegative(Network.class), network, Channel.TWO_WAY);
        connect(c.getNegative(Timer.class), timer, Channel.TWO_WAY);
        Positive<ClientPort> port = c.getPositive(ClientPort.class);
        handle(port, ClientPort.Result.class, this::onResult);
        return port;
    }

    /** {@link #wake()} once, in {@code ms} simulated ms (at least 1). */
    protected final void after(long ms) {
        schedule(Math.max(1, ms), Wake::new);
    }

    /** A timeout of the subclass's own kind ({@code event}, which it handles), in {@code delayMs} simulated ms. */
    protected final void schedule(long delayMs, Function<ScheduleTimeout, ? extends Timeout> event) {
        ScheduleTimeout st = new ScheduleTimeout(delayMs);
        st.setTimeoutEvent(event.apply(st));
        trigger(st, timer);
    }

    /** {@link #wake()} in {@code delayMs} simulated ms, then every {@code periodMs}. */
    protected final void every(long delayMs, long periodMs) {
        SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(delayMs, periodMs);
        spt.setTimeoutEvent(new Wake(spt));
        trigger(spt, timer);
    }

    /** The simulated time, in ms. */
    protected static long now() {
        return System.currentTimeMillis();
    }

    /** The node of {@code region} in {@code regions} (region -> "ip:port"). */
    protected static NetAddress nodeOf(String region, Map<String, String> regions) {
        return NetAddress.parse(regions.get(region));
    }

    /** The region after {@code region} in the order of {@code regions} (the first after the last). */
    protected static String nextRegion(String region, Map<String, String> regions) {
        List<String> names = List.copyOf(regions.keySet());
        return names.get((names.indexOf(region) + 1) % names.size());
    }

    /** {@code text} (an error) as one field of a record: no '|', no line break. */
    protected static String field(String text) {
        return text.replace('|', '/').replace('\n', ' ');
    }

    /** Ends the simulation (the last host to finish calls it). */
    protected static void endSimulation() {
        LauncherComp.simulatorScheduler.shutdown();
    }

    /** The host's own timer. */
    static final class Wake extends Timeout {
        Wake(ScheduleTimeout st) {
            super(st);
        }

        Wake(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    /**
     * A client host's factory record, and the plan the host follows: the host is started with its
     * address and this record ({@link HostInit}), and reads its fields.
     */
    public interface Plan extends NodeFactory {
        @Override
        default Init<? extends ComponentDefinition> init(NetAddress self) {
            return new HostInit<>(self, this);
        }
    }

    /** Who the host is and the plan it follows (the factory record that started it). */
    public static final class HostInit<P extends Plan> extends Init<SimClientHost<P>> {
        final NetAddress self;
        final P plan;

        HostInit(NetAddress self, P plan) {
            this.self = self;
            this.plan = plan;
        }
    }
}
