package geoblocks.app.load;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.node.GeoClient;
import geoblocks.node.NodeFailure;
import geoblocks.sim.harness.Content;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads every acknowledged file back after a run and compares every byte with what was written.
 * A file is tried at each region that is up in turn (starting at a different one per file, so
 * every node serves reads) until one returns it: it is lost only if none can in three rounds 5 s
 * apart (or every region says it does not exist), and corrupt if one returns success with the
 * wrong bytes. The manifests read along the way say which region holds
 * each block's replicas.
 */
final class Verifier {
    /** The outcome: lost and corrupt files (with why), and the replicas the manifests name. */
    record Outcome(int verified, List<String> lost, List<String> corrupt, Replicas.Expected expected, long bytes,
            double seconds) {}

    private Verifier() {}

    static Outcome verify(GeoClient client, List<AckedFiles.File> files, List<String> upRegions, int threads,
            PrintStream out) throws InterruptedException {
        List<String> lost = Collections.synchronizedList(new ArrayList<>());
        List<String> corrupt = Collections.synchronizedList(new ArrayList<>());
        Map<String, Manifest> manifests = new ConcurrentHashMap<>();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        long t0 = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            Thread t = new Thread(() -> {
                for (int i; (i = next.getAndIncrement()) < files.size(); ) {
                    AckedFiles.File f = files.get(i);
                    Round r = check(client, f, i, upRegions, manifests);
                    if (r.problem() == null) {
                        bytes.addAndGet(f.size());
                    } else if (r.corrupt()) {
                        corrupt.add(f.name() + ": " + r.problem());
                    } else {
                        lost.add(f.name() + ": " + r.problem());
                    }
                    done.incrementAndGet();
                }
            }, "verify-" + w);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
        long lastPrint = System.nanoTime();
        int lastDone = 0;
        for (Thread t : workers) {
            while (t.isAlive()) {
                t.join(1000);
                long since = System.nanoTime() - lastPrint;
                if (since > 10_000_000_000L && (done.get() != lastDone || since > 60_000_000_000L)) {
                    lastDone = done.get();
                    out.printf("  checked %d of %d files (%d lost, %d corrupt so far)%n", lastDone, files.size(),
                            lost.size(), corrupt.size());
                    lastPrint = System.nanoTime();
                }
            }
        }
        List<Manifest> ordered = new ArrayList<>(new TreeMap<>(manifests).values());
        return new Outcome(files.size() - lost.size() - corrupt.size(), List.copyOf(lost), List.copyOf(corrupt),
                Replicas.Expected.of(ordered), bytes.get(), (System.nanoTime() - t0) / 1e9);
    }

    /** Rounds over every region before a file counts as lost, and the pause between them. */
    static final int ROUNDS = 3;
    static final long ROUND_PAUSE_MS = 5_000;

    /**
     * Reads {@code f} from each up region in turn until one returns it. A round in which some region
     * failed only transiently (busy, no answer in time) is tried again after a pause, up to
     * {@link #ROUNDS} rounds, so a cluster still draining the load's backlog is not mistaken for one
     * that lost data; a round in which every region says the file does not exist ends it at once.
     */
    private static Round check(GeoClient client, AckedFiles.File f, int i, List<String> regions,
            Map<String, Manifest> manifests) {
        Round r = null;
        for (int round = 1; round <= ROUNDS; round++) {
            r = checkOnce(client, f, i, regions, manifests);
            if (r.problem() == null || r.corrupt() || r.everywhereNotFound()) {
                return r;
            }
            if (round < ROUNDS) {
                try {
                    Thread.sleep(ROUND_PAUSE_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return r;
                }
            }
        }
        return new Round(r.problem() + " (in each of " + ROUNDS + " rounds)", false, false);
    }

    /**
     * A round's outcome: {@code problem} null when the file came back intact, else what went wrong;
     * {@code corrupt}: a read succeeded with wrong bytes; {@code everywhereNotFound}: every region
     * answered that the file does not exist (by its failure code).
     */
    private record Round(String problem, boolean corrupt, boolean everywhereNotFound) {}

    /** One round over every region that is up. */
    private static Round checkOnce(GeoClient client, AckedFiles.File f, int i, List<String> regions,
            Map<String, Manifest> manifests) {
        List<String> errors = new ArrayList<>();
        boolean allNotFound = true;
        for (int k = 0; k < regions.size(); k++) {
            String region = regions.get((i + k) % regions.size());
            try {
                Content.Checker check = new Content.Checker(f.key());
                Manifest m = client.get(region, f.name(), check);
                long at = check.firstMismatch(f.size());
                if (at >= 0) {
                    return new Round("corrupt: read at " + region + " succeeded with bytes that differ from offset " + at,
                            true, false);
                }
                manifests.put(f.name(), m);
                return new Round(null, false, false);
            } catch (IOException e) {
                errors.add(region + ": " + e.getMessage());
                allNotFound &= NodeFailure.codeOf(e) == FailureCode.NOT_FOUND;
            }
        }
        return new Round("unreadable at every region that is up (" + String.join("; ", errors) + ")", false, allNotFound);
    }
}
