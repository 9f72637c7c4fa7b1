package geoblocks.node.cli;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.core.placement.PolicySet;
import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.Background;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.blockstore.wire.ClientOp.PeerRtt;
import geoblocks.blockstore.wire.ClientOp.PoliciesReply;
import geoblocks.blockstore.wire.ClientOp.PolicyInfo;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.node.AdminClient;
import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import geoblocks.node.Sizes;
import geoblocks.node.s3.MiniJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** The client subcommands. Each prints one result (or one error line) and exits. */
final class ClientOps {
    private ClientOps() {}

    /** Progress on stderr, at most once a second, for transfers of 16 MiB or more. */
    static Consumer<ClientPort.Progress> progress(String what) {
        long[] last = {System.nanoTime()};
        return p -> {
            long now = System.nanoTime();
            if (p.total() >= (16 << 20) && now - last[0] > 1_000_000_000L) {
                last[0] = now;
                System.err.printf("%s: %.1f / %.1f MiB (%d%%)%n", what, p.bytes() / 1048576.0,
                        p.total() / 1048576.0, p.bytes() * 100 / p.total());
            }
        };
    }

    @Command(name = "put", mixinStandardHelpOptions = true, description = "Upload a file.")
    static final class Put implements Callable<Integer> {
        @ParentCommand ClientCommand parent;
        @Parameters(paramLabel = "FILE") Path file;
        @Option(names = "--policy", defaultValue = "local", description = "A placement policy of the node: random, tworandom, local, localclosest, localfarthest, localclosest3, balanced, or one from its config (client policies lists them; default: ${DEFAULT-VALUE}).")
        String policy;
        @Option(names = "--block-size", paramLabel = "SIZE", description = "Block size, e.g. 64KiB, 1MiB (default: the config's geoblocks.node.default-block-size, 1 MiB).")
        String blockSize;
        @Option(names = "--name", description = "Name to store under (default: the file's name).")
        String name;
        @Option(names = "--ack", defaultValue = "all", paramLabel = "LEVEL", description = "all: return when every replica is durable; local: when the coordinator's copy is (the others follow in the background from a durable queue) (default: ${DEFAULT-VALUE}).")
        String ack;
        @Option(names = "--if-absent", description = "Create only if the name has no live version, decided by the name's owner region (two such creates never both succeed; refused while the owner is unreachable). Without it an existing name gets a newer version.")
        boolean ifAbsent;
        @Option(names = "--compress", defaultValue = "none", paramLabel = "MODE", description = "Per block: none; gzip or zstd (stored compressed when smaller); auto (zstd when a sample and the block save >= 10 %%) (default: ${DEFAULT-VALUE}). Downloads decompress.")
        String compress;

        @Override
        public Integer call() throws Exception {
            Compression mode = Compression.parse(compress);
            String p = policy.trim().toLowerCase(Locale.ROOT); // the node refuses a name it does not know
            if (p.isEmpty()) {
                throw new IllegalArgumentException("--policy must not be empty");
            }
            long bs = blockSize != null ? Sizes.parse(blockSize) : AppConfig.load(parent.config).node().defaultBlockSize();
            if (bs < 1 || bs > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("block size " + blockSize + " is out of range");
            }
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw new IllegalArgumentException("cannot read file " + file);
            }
            if (!ack.equals("all") && !ack.equals("local")) {
                throw new IllegalArgumentException("--ack must be all or local, was '" + ack + "'");
            }
            String n = Manifest.validateName(name != null ? name : file.getFileName().toString());
            try (GeoClient c = parent.open()) {
                long t0 = System.nanoTime();
                ClientPort.Written w = c.write(parent.at, file, null, n, p, (int) bs, ack, ifAbsent, mode,
                        progress("put " + n));
                double ms = (System.nanoTime() - t0) / 1e6;
                System.out.printf("stored %s (%d bytes, policy %s, blocks of %s%s%s%s) at %s in %.0f ms: %s, version %s%n",
                        n, Files.size(file), p, Sizes.human(bs), ack.equals("local") ? ", ack local" : "",
                        ifAbsent ? ", created" : "", mode == Compression.NONE ? "" : ", compress " + mode.label(),
                        parent.at, ms, w.info(), w.version());
            }
            return 0;
        }
    }

    /** get and stat take --version ID, so they cannot mix in picocli's standard -V/--version: help only. */
    @Command(name = "get", description = "Download a file, verifying every block.")
    static final class Get implements Callable<Integer> {
        @ParentCommand ClientCommand parent;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.") boolean help;
        @Parameters(index = "0", paramLabel = "NAME") String name;
        @Parameters(index = "1", paramLabel = "OUT") Path out;
        @Option(names = "--version", paramLabel = "ID", description = "Read this version (an id from `versions`) instead of the newest.")
        String version;
        @Option(names = "--read", paramLabel = "STRATEGY", description = "How the node reads each block from its replicas: first (the first replica; the next only after a failure), parallel (every replica, the first complete block wins, the others are cancelled) or hedged (a second replica after the first one's observed p95). Default (neither --read nor --rank): the serving node's geoblocks.node.read, first by RTT unless configured.")
        String read;
        @Option(names = "--rank", paramLabel = "RANK", description = "Order of the replicas for --read: rtt (this node, then by RTT; default) or load (by measured service latency).")
        String rank;
        @Option(names = "--range", paramLabel = "FIRST-LAST", description = "Download only bytes FIRST..LAST (inclusive, from 0; LAST past the end means to the end) into OUT: the node reads only the blocks that cover them.")
        String range;

        /** {@code FIRST-LAST} as a range, or a clear error. */
        static ClientPort.Range parseRange(String s) {
            int dash = s.indexOf('-');
            try {
                if (dash <= 0) {
                    throw new NumberFormatException();
                }
                return new ClientPort.Range(Long.parseLong(s.substring(0, dash).trim()),
                        Long.parseLong(s.substring(dash + 1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--range '" + s + "' is not FIRST-LAST (two byte offsets, e.g. 0-1023)");
            }
        }

        @Override
        public Integer call() throws Exception {
            ReadOptions options = read == null && rank == null ? null : ReadOptions.parse(read, rank);
            ClientPort.Range span = range == null ? null : parseRange(range);
            Path dir = out.toAbsolutePath().getParent();
            if (dir == null || !Files.isDirectory(dir)) {
                throw new IllegalArgumentException("directory of " + out + " does not exist");
            }
            if (version != null) {
                Version.parse(version); // a bad id fails here, before the client starts
            }
            try (GeoClient c = parent.open()) {
                long t0 = System.nanoTime();
                Manifest m = c.get(parent.at, name, out, version == null ? "" : version, options, span,
                        progress("get " + name));
                double ms = (System.nanoTime() - t0) / 1e6;
                if (span != null) {
                    long last = Math.min(span.last(), m.size() - 1);
                    System.out.printf("downloaded bytes %d-%d of %s (version %s, %d bytes) to %s (%d bytes) at %s in %.0f ms%n",
                            span.first(), last, name, m.version(), m.size(), out, last - span.first() + 1, parent.at, ms);
                    return 0;
                }
                System.out.printf("downloaded %s (version %s) to %s (%d bytes, %s verified) at %s in %.0f ms%n",
                        name, m.version(), out, m.size(), m.isInline() ? "inline" : m.blocks().size() + " blocks",
                        parent.at, ms);
            }
            return 0;
        }
    }

    @Command(name = "ls", mixinStandardHelpOptions = true, description = "List files.")
    static final class Ls implements Callable<Integer> {
        @ParentCommand ClientCommand parent;
        @Option(names = "--prefix", description = "Only the names starting with this (a client by access key lists only"
                + " under a prefix its key may read whole).") String prefix = "";

        @Override
        public Integer call() throws Exception {
            try (GeoClient c = parent.open()) {
                List<ListEntry> files = prefix.isEmpty() ? c.list(parent.at) : listAll(c, parent.at, prefix);
                System.out.printf("%-32s %12s %10s %-14s %-10s %s%n", "NAME", "SIZE", "BLOCK", "POLICY", "UPLOADED", "CREATED");
                for (ListEntry e : files) {
                    System.out.printf("%-32s %12d %10s %-14s %-10s %s%n", e.name(), e.size(), Sizes.human(e.blockSize()),
                            e.policy(), e.uploadedAt(), Instant.ofEpochMilli(e.createdMillis()));
                }
                System.out.println(files.size() + " file(s)");
            }
            return 0;
        }

        /** Every name under {@code prefix}, page by page. */
        private static List<ListEntry> listAll(GeoClient c, String region, String prefix) throws IOException {
            List<ListEntry> all = new ArrayList<>();
            ClientPort.Listing page;
            do {
                page = c.listPage(region, prefix, all.isEmpty() ? "" : all.get(all.size() - 1).name(), 1000);
                all.addAll(page.entries());
            } while (page.more() && !page.entries().isEmpty());
            return all;
        }
    }

    @Command(name = "stat", description = "Show a file's blocks and where their replicas are.")
    static final class Stat implements Callable<Integer> {
        @ParentCommand ClientCommand parent;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.") boolean help;
        @Parameters(paramLabel = "NAME") String name;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;
        @Option(names = "--version", paramLabel = "ID", description = "Describe this version (an id from `versions`) instead of the newest.")
        String version;

        @Override
        public Integer call() throws Exception {
            if (version != null) {
                Version.parse(version);
            }
            try (GeoClient c = parent.open()) {
                ClientPort.FileStat st = c.statFull(parent.at, name, version == null ? "" : version);
                System.out.println(json ? Json.stat(st) : text(st));
            }
            return 0;
        }

        static String text(ClientPort.FileStat st) {
            Manifest m = st.manifest();
            StringBuilder s = new StringBuilder();
            s.append(String.format("%s: %d bytes, %d blocks of %s, policy %s, uploaded at %s, %s%n", m.name(), m.size(),
                    m.blocks().size(), Sizes.human(m.blockSize()), m.policy(), m.uploadedAt(),
                    Instant.ofEpochMilli(m.createdMillis())));
            s.append(String.format("version %s%s (clock %d ms + %d, location epoch %d)%n", m.version(),
                    m.deleted() ? ", a delete" : "", m.version().millis(), HybridClock.logical(m.version().clock()),
                    m.locEpoch()));
            if (m.isInline()) {
                s.append(String.format("stored inline: its %d bytes (CRC32C %s) live in the manifest, which every region"
                        + " keeps; no blocks%n", m.size(), Checksums.hex(m.inline().crc())));
                return s.toString().stripTrailing();
            }
            if (m.storedSize() != m.size()) {
                s.append(String.format("stored compressed: %d bytes (%.1f %% of the original)%n", m.storedSize(),
                        100.0 * m.storedSize() / Math.max(1, m.size())));
            }
            s.append(String.format("%6s %10s %9s %5s  %-24s %s%n", "BLOCK", "STORED", "CRC32C", "CODEC", "REPLICAS", "PENDING"));
            for (int i = 0; i < m.blocks().size(); i++) {
                Manifest.BlockRef b = m.blocks().get(i);
                s.append(String.format("%6d %10d %9s %5s  %-24s %s%n", i, b.length(), Checksums.hex(b.crc()), b.codec().label(),
                        String.join(",", st.held(i)), st.pendingKnown() ? String.join(",", st.pending(i)) : "(ask " + m.uploadedAt() + ")"));
            }
            return s.toString().stripTrailing();
        }
    }

    @Command(name = "rm", mixinStandardHelpOptions = true, description = "Delete a file everywhere (a delete version; earlier versions stay readable until the retention drops them).")
    static final class Rm implements Callable<Integer> {
        @ParentCommand ClientCommand parent;
        @Parameters(paramLabel = "NAME") String name;

        @Override
        public Integer call() throws Exception {
            try (GeoClient c = parent.open()) {
                ClientPort.Written w = c.remove(parent.at, name);
                System.out.println("deleted " + name + ": " + w.info() + ", version " + w.version());
            }
            return 0;
        }
    }

    @Command(name = "versions", mixinStandardHelpOptions = true, description = "List the versions of a file the node keeps, newest first (deletes included).")
    static final class Versions implements Callable<Integer> {
        @ParentCommand ClientCommand parent;
        @Parameters(paramLabel = "NAME") String name;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            try (GeoClient c = parent.open()) {
                List<VersionEntry> vs = c.versions(parent.at, name);
                System.out.println(json ? Json.versions(name, vs) : text(vs));
            }
            return 0;
        }

        static String text(List<VersionEntry> vs) {
            StringBuilder s = new StringBuilder(String.format("%-30s %12s %-10s %-24s %s%n", "VERSION", "SIZE", "REGION",
                    "UPLOADED", "CLOCK"));
            for (int i = 0; i < vs.size(); i++) {
                VersionEntry v = vs.get(i);
                s.append(String.format("%-30s %12s %-10s %-24s %d ms + %d%s%n", v.id(), v.deleted() ? "(delete)" : v.size(),
                        v.uploadedAt(), Instant.ofEpochMilli(v.createdMillis()), HybridClock.physicalMillis(v.clock()),
                        HybridClock.logical(v.clock()), i == 0 ? "  (current)" : ""));
            }
            return s.append(vs.size()).append(" version(s)").toString();
        }
    }

    @Command(name = "policies", mixinStandardHelpOptions = true, description = "List the node's placement policies and their rules.")
    static final class Policies implements Callable<Integer> {
        @ParentCommand ClientCommand parent;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;

        @Override
        public Integer call() throws Exception {
            try (GeoClient c = parent.open()) {
                PoliciesReply r = c.policies(parent.at);
                System.out.println(json ? Json.policies(r) : text(r));
            }
            return 0;
        }

        static String text(PoliciesReply r) {
            StringBuilder s = new StringBuilder(String.format("node %s: %d placement policies%n", r.region(), r.policies().size()));
            s.append(String.format("  %-16s %-12s %6s  %s%n", "NAME", "KIND", "COPIES", "RULES"));
            for (PolicyInfo p : r.policies()) {
                s.append(String.format("  %-16s %-12s %6d  %s%n", p.name(), p.kind(), p.copies(), p.rules()));
            }
            s.append("  (").append(PolicySet.COMMON_RULE).append(')');
            return s.toString();
        }
    }

    private static String ms(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f ms", v) : "n/a";
    }

    @Command(name = "move", mixinStandardHelpOptions = true,
            description = "Move a file's replicas to other regions, in the background (over LEDBAT unless the nodes' background-transport is tcp): the manifest changes once the new copies are durable, then the old copies are deleted. An admin operation: it goes through the node's admin API with an admin token (GEOBLOCKS_ADMIN_TOKEN, else geoblocks.admin.token).")
    static final class Move implements Callable<Integer> {
        @ParentCommand ClientCommand parent;
        @Parameters(paramLabel = "NAME") String name;
        @Option(names = "--to", required = true, split = ",", paramLabel = "REGION[,REGION...]",
                description = "The regions that hold every block afterwards.")
        List<String> to;

        @Override
        public Integer call() throws Exception {
            AdminClient admin = parent.admin();
            String json = AdminClient.moveRequest(name, to);
            // the admin API answers when the move ended: say every 5 s that it is still running
            long start = System.nanoTime();
            ScheduledExecutorService ticker = Executors
                    .newSingleThreadScheduledExecutor(r -> {
                        Thread t = new Thread(r, "move-progress");
                        t.setDaemon(true);
                        return t;
                    });
            ticker.scheduleAtFixedRate(() -> System.err.printf("move: still copying after %d s%n",
                    (System.nanoTime() - start) / 1_000_000_000L), 5, 5, TimeUnit.SECONDS);
            try {
                Object answer = MiniJson.parse(admin.call("POST", "/moves", json));
                System.out.println(((Map<?, ?>) answer).get("result"));
            } finally {
                ticker.shutdownNow();
            }
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Show the node's view of its peers (RTT, up/down), refused input, scrubber and transfer counters, and its background (LEDBAT) sending per peer.")
    static final class Status implements Callable<Integer> {
        @ParentCommand ClientCommand parent;
        @Option(names = "--json", description = "Print JSON for scripts.") boolean json;
        @Option(names = "--every", paramLabel = "SECONDS", description = "Ask again every SECONDS (e.g. 0.5) until stopped or --count samples; with --json one line per sample, with \"time_ms\" (epoch ms).")
        Double every;
        @Option(names = "--count", paramLabel = "N", description = "With --every: stop after N samples (default: until stopped).")
        Long count;

        @Override
        public Integer call() throws Exception {
            if (every != null && !(every > 0 && every <= 3600)) {
                throw new IllegalArgumentException("--every must be in (0, 3600] seconds, was " + every);
            }
            if (count != null && (count < 1 || every == null)) {
                throw new IllegalArgumentException("--count needs --every and must be >= 1, was " + count);
            }
            try (GeoClient c = parent.open()) {
                long periodNanos = every == null ? 0 : (long) (every * 1e9);
                long next = System.nanoTime();
                for (long n = 0; every != null ? count == null || n < count : n < 1; n++) {
                    long sleep = next - System.nanoTime();
                    if (sleep > 0) {
                        Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                    }
                    next += periodNanos;
                    StatusReply s = c.status(parent.at);
                    ClientOp.ClusterReply cr = c.cluster(parent.at, "show", "", "", "", 0, false);
                    long layout = LayoutCodec.decode(cr.layout()).version();
                    if (json) {
                        String line = Json.status(s);
                        line = line.substring(0, line.length() - 1) + ",\"layout_version\":" + layout + ",\"rebalance\":"
                                + ClusterOps.rebalanceJson(cr) + "}";
                        System.out.println(every == null ? line : "{\"time_ms\":" + System.currentTimeMillis() + "," + line.substring(1));
                    } else {
                        print(s);
                        System.out.println("cluster layout version " + layout + " (client cluster show lists it)");
                        System.out.println(ClusterOps.rebalanceText(cr));
                    }
                    System.out.flush();
                }
            }
            return 0;
        }

        private static void print(StatusReply s) {
            System.out.println("node " + s.region());
            for (PeerRtt p : s.peers()) {
                System.out.printf("  %-12s %s%n", p.region(), p.rttMs() < 0 ? "down" : String.format("%.1f ms", p.rttMs()));
            }
            ClientOp.Versions v = s.versions();
            if (v == null) {
                System.out.println("versions: not reported (the node runs geoblocks 0.2.x: file protocol 4 or older)");
            } else {
                System.out.println("cluster version " + v.clusterVersion() + (v.finalizeNote().isEmpty() ? ""
                        : " (" + v.finalizeNote() + ")"));
                for (ClientOp.MemberBuild m : v.members()) {
                    System.out.printf("  %-12s runs %s%s%n", m.region(), m.build(), m.fileProtocol() < 0 ? " (this node)"
                            : ", file protocol " + m.fileProtocol() + " with this node");
                }
            }
            System.out.printf("refused input: %d malformed or unexpected, %d unauthenticated messages%n",
                    s.malformed(), s.unauthenticated());
            System.out.printf("scrubber: %d blocks verified, %d replicas repaired, %d could not be repaired%n",
                    s.scrubbed(), s.repaired(), s.unrepairable());
            System.out.printf("block transfers between nodes: ledbat %d bytes sent, %d received; tcp %d bytes sent, %d received%n",
                    s.transfers().ledbatSent(), s.transfers().ledbatReceived(), s.transfers().tcpSent(),
                    s.transfers().tcpReceived());
            System.out.printf("  by class: foreground %d bytes sent, %d received; background %d bytes sent, %d received%n",
                    s.transfers().foregroundSent(), s.transfers().foregroundReceived(), s.transfers().backgroundSent(),
                    s.transfers().backgroundReceived());
            Background b = s.background();
            System.out.printf("background: %d bytes still to send, %d replica copies owed%n", b.queuedBytes(),
                    b.queuedCopies());
            ClientOp.Gc g = s.gc();
            System.out.printf("block collection: %d blocks (%d bytes) collected; %d passes%s%s; %d moves in flight%n",
                    g.collectedBlocks(), g.collectedBytes(), g.passes(),
                    g.running() ? ", one running (" + g.passChecked() + " checked, " + g.passCollected() + " collected, "
                            + g.passInFlight() + " in flight)" : "",
                    g.settledSinceMillis() < 0 ? ", paused: a peer is down" : "", g.moves());
            for (LedbatPeer p : b.peers()) {
                System.out.printf("  ledbat to %-10s %s, %d stream(s), cwnd %d bytes, %d queued, %d in flight,"
                        + " queuing delay %s, base delay %s, rtt %s, %d retransmissions%s%n", p.region(),
                        p.active() ? "active" : "idle", p.streams(), p.cwndBytes(), p.queuedBytes(), p.inFlightBytes(),
                        ms(p.queuingDelayMs()), ms(p.baseDelayMs()), ms(p.rttMs()), p.retransmissions(),
                        p.pathMtuBytes() > 0 ? ", path MTU " + p.pathMtuBytes() + " bytes of UDP payload" : "");
                if (p.stalledForMs() > 0) {
                    System.out.printf("  WARNING: background copies to %s stalled for %d s: bytes waiting, next to none"
                            + " acknowledged (a path that drops large datagrams, or a peer that stopped reading;"
                            + " docs/network.md)%n", p.region(), p.stalledForMs() / 1000);
                }
            }
        }
    }
}
