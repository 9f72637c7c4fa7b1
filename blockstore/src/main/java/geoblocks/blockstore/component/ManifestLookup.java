package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.LookupManifest;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Finds a file's manifest: locally, else by asking every peer that is up at once and taking the
 * first valid answer (which is then kept locally, so the next lookup is local).
 */
final class ManifestLookup {
    private final Node node;
    private final String name;
    private final Consumer<Optional<Manifest>> done;
    private int waiting;
    private boolean finished;

    private ManifestLookup(Node node, String name, Consumer<Optional<Manifest>> done) {
        this.node = node;
        this.name = name;
        this.done = done;
    }

    static void find(Node node, String name, Consumer<Optional<Manifest>> done) {
        Optional<Manifest> local = node.manifests().find(name);
        if (local.isPresent()) {
            done.accept(local);
            return;
        }
        new ManifestLookup(node, name, done).ask();
    }

    private void ask() {
        List<String> up = node.lookupPeers();
        waiting = up.size();
        if (waiting == 0) {
            finish(Optional.empty());
            return;
        }
        for (String peer : up) {
            NetAddress addr = node.addressOf(peer);
            Assembly[] parts = new Assembly[1];
            long req = node.expect(addr, Pending.Waiter.of(op -> {
                if (op instanceof ManifestPart p && !p.publish()) {
                    if (parts[0] == null) {
                        parts[0] = new Assembly(p.total(), ReplicaServer.MAX_MANIFEST);
                    }
                    if (!parts[0].add(p.offset(), p.data())) {
                        return false;
                    }
                    answered(decode(parts[0].bytes()));
                    return true;
                }
                if (op instanceof Failed) {
                    answered(Optional.empty());
                    return true;
                }
                return false;
            }, why -> answered(Optional.empty())));
            node.send(addr, new LookupManifest(req, name));
        }
    }

    private Optional<Manifest> decode(byte[] bytes) {
        try {
            Manifest m = ManifestCodec.decode(bytes);
            return m.name().equals(name) ? Optional.of(m) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private void answered(Optional<Manifest> m) {
        waiting--;
        if (m.isPresent() && !finished) {
            try {
                node.manifests().save(m.get());
            } catch (IOException e) {
                // serving it is still right; it will be looked up again next time
            }
            finish(m);
        } else if (waiting == 0 && !finished) {
            finish(Optional.empty());
        }
    }

    private void finish(Optional<Manifest> m) {
        finished = true;
        done.accept(m);
    }
}
