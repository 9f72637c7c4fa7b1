package geoblocks.blockstore.component;

import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.ListEntry;
import geoblocks.blockstore.wire.FileOp.ListPart;
import geoblocks.blockstore.wire.FileOp.ListReq;
import geoblocks.net.NetAddress;
import java.util.ArrayDeque;

/**
 * Brings back the manifests of a node that starts with none (a new or replaced disk): once a peer
 * is up, pages through that peer's file list and looks up every manifest it lacks, one at a time.
 * With the manifests back, the scrubber finds this node's missing replicas and repairs them. A node
 * that still has manifests does not sync (so a delete it missed cannot come back from it).
 */
final class ManifestSync {
    private final Node node;
    private final ArrayDeque<String> missing = new ArrayDeque<>();
    private boolean started;
    long restored;

    ManifestSync(Node node) {
        this.node = node;
    }

    void onRtt(RttTable table) {
        if (started) {
            return;
        }
        if (node.manifests().size() > 0) {
            started = true;
            return;
        }
        table.ranking().stream().findFirst().ifPresent(peer -> {
            started = true;
            page(node.addressOf(peer), "");
        });
    }

    private void page(NetAddress peer, String after) {
        long req = node.expect(peer, Pending.Waiter.of(op -> {
            if (op instanceof ListPart p) {
                for (ListEntry e : p.entries()) {
                    if (node.manifests().find(e.name()).isEmpty()) {
                        missing.add(e.name());
                    }
                }
                if (p.more() && !p.entries().isEmpty()) {
                    page(peer, p.entries().get(p.entries().size() - 1).name());
                } else {
                    restoreNext();
                }
                return true;
            }
            if (op instanceof Failed f) {
                Logs.warn(node.region() + ": manifest sync from " + peer + " failed: " + f.error());
                started = false;
                return true;
            }
            return false;
        }, why -> started = false));
        node.send(peer, new ListReq(req, after, 200));
    }

    private void restoreNext() {
        String name = missing.poll();
        if (name == null) {
            if (restored > 0) {
                Logs.info(node.region() + ": restored " + restored + " manifests from peers");
            }
            return;
        }
        ManifestLookup.find(node, name, m -> {
            if (m.isPresent()) {
                restored++;
            }
            restoreNext();
        });
    }
}
