package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.LookupManifest;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Finds a file's manifest: the newest version (unless it is a tombstone) or a given one. Locally
 * when this node knows the name (or the version), else by asking every peer that is up at once for
 * the name's history; every answer is merged here (so the next lookup is local, and a stale answer
 * cannot hide a newer one for long), and the first answer that has what was asked for serves.
 */
final class ManifestLookup {
    private final Node node;
    private final String name;
    private final Function<ManifestHistory, Optional<Manifest>> pick;
    private final Consumer<Optional<Manifest>> done;
    private int waiting;
    private boolean finished;

    private ManifestLookup(Node node, String name, Function<ManifestHistory, Optional<Manifest>> pick,
            Consumer<Optional<Manifest>> done) {
        this.node = node;
        this.name = name;
        this.pick = pick;
        this.done = done;
    }

    /** The newest live version of {@code name}; empty when absent or deleted. */
    static void find(Node node, String name, Consumer<Optional<Manifest>> done) {
        Optional<ManifestHistory> local = node.manifests().history(name);
        if (local.isPresent()) {
            done.accept(local.get().live());
            return;
        }
        new ManifestLookup(node, name, ManifestHistory::live, done).ask();
    }

    /** Version {@code version} of {@code name} (empty: the newest live one). */
    static void find(Node node, String name, Version version, Consumer<Optional<Manifest>> done) {
        if (version == null) {
            find(node, name, done);
            return;
        }
        Function<ManifestHistory, Optional<Manifest>> pick = h -> h.find(version);
        Optional<Manifest> local = node.manifests().history(name).flatMap(pick);
        if (local.isPresent()) {
            done.accept(local);
            return;
        }
        new ManifestLookup(node, name, pick, done).ask();
    }

    /** Every version of {@code name} this node keeps, after asking the peers when it knows none. */
    static void history(Node node, String name, Consumer<Optional<ManifestHistory>> done) {
        Optional<ManifestHistory> local = node.manifests().history(name);
        if (local.isPresent()) {
            done.accept(local);
            return;
        }
        new ManifestLookup(node, name, h -> Optional.of(h.head()), m -> done.accept(node.manifests().history(name))).ask();
    }

    private void ask() {
        List<String> up = node.lookupPeers();
        waiting = up.size();
        if (waiting == 0) {
            finish(Optional.empty());
            return;
        }
        for (String peer : up) {
            // a bad or unstorable answer counts as none; another peer may answer
            pull(node, node.addressOf(peer), name, this::answered, why -> answered(Optional.empty()));
        }
    }

    /**
     * Asks {@code peer} for the history of {@code name} and merges the answer here: {@code merged}
     * gets what this node then keeps of the name, {@code failed} why nothing was merged (the peer
     * failed or did not answer, or its answer was bad or could not be stored).
     */
    static void pull(Node node, NetAddress peer, String name, Consumer<Optional<ManifestHistory>> merged,
            Consumer<Failure> failed) {
        fetch(node, peer, name, h -> {
            Optional<ManifestHistory> kept;
            try {
                kept = node.versions().merge(h);
            } catch (IOException e) {
                failed.accept(Failure.ofStorage(e));
                return;
            } catch (IllegalArgumentException e) {
                failed.accept(Failure.of(e, FailureCode.INVALID));
                return;
            }
            merged.accept(kept);
        }, failed);
    }

    /**
     * Asks {@code peer} for the history of {@code name} without merging it (the caller merges, e.g.
     * many at once): {@code got} gets the decoded history of that name, {@code failed} why there is
     * none (the peer failed or did not answer, or its answer was bad or named another file).
     */
    static void fetch(Node node, NetAddress peer, String name, Consumer<ManifestHistory> got, Consumer<Failure> failed) {
        Assembly[] parts = new Assembly[1];
        long req = node.expect(peer, Pending.Waiter.of(op -> {
            if (op instanceof ManifestPart p && !p.publish()) {
                if (parts[0] == null) {
                    parts[0] = new Assembly(p.total(), ReplicaServer.MAX_MANIFEST);
                }
                if (!parts[0].add(p.offset(), p.data())) {
                    return false;
                }
                ManifestHistory h;
                try {
                    h = ManifestCodec.decodeAny(parts[0].bytes());
                    if (!h.name().equals(name)) {
                        throw new IOException("asked for '" + name + "', got '" + h.name() + "'");
                    }
                } catch (IOException | IllegalArgumentException e) {
                    failed.accept(Failure.of(e, FailureCode.INVALID)); // the peer's answer does not decode, or names another file
                    return true;
                }
                got.accept(h);
                return true;
            }
            if (op instanceof Failed f) {
                failed.accept(Failure.of(f));
                return true;
            }
            return false;
        }, failed));
        node.send(peer, new LookupManifest(req, name));
    }

    private void answered(Optional<ManifestHistory> h) {
        waiting--;
        Optional<Manifest> m = h.flatMap(pick);
        if (m.isPresent() && !finished) {
            finish(m);
        } else if (waiting == 0 && !finished) {
            finish(node.manifests().history(name).flatMap(pick));
        }
    }

    private void finish(Optional<Manifest> m) {
        finished = true;
        done.accept(m);
    }
}
