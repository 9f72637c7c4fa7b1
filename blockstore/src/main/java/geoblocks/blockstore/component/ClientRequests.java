package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.TransferCounters;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.FileOp.DeleteFile;
import geoblocks.blockstore.wire.FileOp.DeleteReq;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.ListEntry;
import geoblocks.blockstore.wire.FileOp.ListPart;
import geoblocks.blockstore.wire.FileOp.ListReq;
import geoblocks.blockstore.wire.FileOp.PeerRtt;
import geoblocks.blockstore.wire.FileOp.PendingCopy;
import geoblocks.blockstore.wire.FileOp.StatPending;
import geoblocks.blockstore.wire.FileOp.StatReq;
import geoblocks.blockstore.wire.FileOp.StatusReply;
import geoblocks.blockstore.wire.FileOp.StatusReq;
import geoblocks.blockstore.wire.FileOp.Transfers;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The client requests that are not transfers: list, stat (manifest plus the copies the
 * replication queue still owes), status (RTTs, refused input, scrubber and transfer counters, the
 * background sending state per peer) and
 * delete (here and at every peer that is up; a down peer keeps its copy).
 */
final class ClientRequests {
    private static final int LIST_LIMIT = 200;

    private final Node node;
    private final Replicator replicator;
    private final ReplicaServer replicas;
    private final Scrubber scrubber;
    private final BackgroundTransfers background;
    private final TransferCounters counters;
    private final RefusedInput refused;

    ClientRequests(Node node, Replicator replicator, ReplicaServer replicas, Scrubber scrubber,
            BackgroundTransfers background, TransferCounters counters, RefusedInput refused) {
        this.background = background;
        this.node = node;
        this.replicator = replicator;
        this.replicas = replicas;
        this.scrubber = scrubber;
        this.counters = counters;
        this.refused = refused;
    }

    void onList(NetAddress from, ListReq l) {
        int limit = Math.max(1, Math.min(l.limit(), LIST_LIMIT));
        List<Manifest> page = node.manifests().list(l.after(), limit + 1);
        List<ListEntry> entries = new ArrayList<>();
        for (Manifest m : page.subList(0, Math.min(limit, page.size()))) {
            entries.add(new ListEntry(m.name(), m.size(), m.blockSize(), m.policy(), m.uploadedAt(), m.createdMillis()));
        }
        node.send(from, new ListPart(l.req(), entries, page.size() > limit));
    }

    void onStat(NetAddress from, StatReq s) {
        ManifestLookup.find(node, s.name(), m -> {
            if (m.isPresent()) {
                sendPending(from, s.req(), m.get());
                Downloads.sendManifest(node, from, s.req(), m.get());
            } else {
                node.send(from, new Failed(s.req(), "no such file '" + s.name() + "'"));
            }
        });
    }

    /** Before a stat's manifest: the copies this node's replication queue still owes for it (see StatPending). */
    private void sendPending(NetAddress client, long req, Manifest m) {
        boolean known = m.uploadedAt().equals(node.region());
        List<PendingCopy> copies = new ArrayList<>();
        if (known) {
            replicator.pending(m).forEach((block, regions) -> regions.forEach(r -> copies.add(new PendingCopy(block, r))));
        }
        int from = 0;
        do {
            int to = Math.min(copies.size(), from + FileCodec.MAX_LIST);
            node.send(client, new StatPending(req, known, List.copyOf(copies.subList(from, to))));
            from = to;
        } while (from < copies.size());
    }

    void onStatus(NetAddress from, StatusReq s) {
        node.send(from, status(s.req()));
    }

    /** What {@code client status} answers, for request {@code req} (also the operator snapshot's status). */
    StatusReply status(long req) {
        List<PeerRtt> peers = new ArrayList<>();
        for (String p : node.peerRegions()) {
            peers.add(new PeerRtt(p, node.rtt().rttMs(p).orElse(-1.0)));
        }
        return new StatusReply(req, node.region(), peers, refused.malformedOrUnexpected(),
                refused.unauthenticated(), scrubber.scrubbed, scrubber.repaired, scrubber.unrepairable,
                new Transfers(counters.tcpSent(), counters.tcpReceived(), counters.ledbatSent(), counters.ledbatReceived(),
                        counters.tcpBackgroundSent(), counters.tcpBackgroundReceived()),
                background.status(replicator.size()));
    }

    void onDelete(NetAddress client, DeleteReq d) {
        ManifestLookup.find(node, d.name(), found -> {
            if (found.isEmpty()) {
                node.send(client, new Failed(d.req(), "no such file '" + d.name() + "'"));
                return;
            }
            List<String> notes = new ArrayList<>(List.of(replicas.deleteHere(d.name())));
            List<String> up = new ArrayList<>();
            for (String p : node.peerRegions()) {
                if (node.rtt().isUp(p)) {
                    up.add(p);
                } else {
                    notes.add(p + " is down and keeps its copy");
                }
            }
            int[] waiting = {up.size()};
            Runnable answered = () -> {
                if (--waiting[0] == 0) {
                    node.send(client, new Done(d.req(), String.join("; ", notes)));
                }
            };
            if (up.isEmpty()) {
                node.send(client, new Done(d.req(), String.join("; ", notes)));
            }
            for (String p : up) {
                NetAddress addr = node.addressOf(p);
                long req = node.expect(addr, Pending.Waiter.of(op -> {
                    notes.add(op instanceof Done done ? done.info() : p + ": " + ((Failed) op).error());
                    answered.run();
                    return true;
                }, why -> {
                    notes.add(p + ": " + why);
                    answered.run();
                }));
                node.send(addr, new DeleteFile(req, d.name()));
            }
        });
    }
}
