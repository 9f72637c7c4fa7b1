package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Listed;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.TransferCounters;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.ClientOp.Committed;
import geoblocks.blockstore.wire.ClientOp.DeleteReq;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.blockstore.wire.ClientOp.ListPart;
import geoblocks.blockstore.wire.ClientOp.ListReq;
import geoblocks.blockstore.wire.ClientOp.PeerRtt;
import geoblocks.blockstore.wire.ClientOp.PendingCopy;
import geoblocks.blockstore.wire.ClientOp.StatPending;
import geoblocks.blockstore.wire.ClientOp.StatReq;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.StatusReq;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.blockstore.wire.ClientOp.VersionList;
import geoblocks.blockstore.wire.ClientOp.VersionsReq;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The client requests that are not transfers: list, stat (a version's manifest plus the copies the
 * replication queue still owes), versions (every version kept), status (RTTs, refused input,
 * scrubber and transfer counters, the background sending state per peer) and delete (a tombstone
 * version, stamped here and published to every peer that is up; anti-entropy brings it to the others).
 */
final class ClientRequests {
    /** Most entries of one ListPart (the codec's list bound). */
    static final int LIST_LIMIT = FileCodec.MAX_LIST;
    /** Live names read from the store per seek while filling a ListPart. */
    static final int LIST_CHUNK = 128;
    /** Versions per VersionList: 100 entries with their metadata (at most 200 bytes each) fit one frame. */
    static final int VERSIONS_PER_MESSAGE = 100;

    private final Node node;
    private final Replicator replicator;
    private final Scrubber scrubber;
    private final BackgroundTransfers background;
    private final TransferCounters counters;
    private final RefusedInput refused;
    /** The block collector's figures for status (set by the file service). */
    private Supplier<ClientOp.Gc> gc =
            () -> ClientOp.Gc.NONE;

    ClientRequests(Node node, Replicator replicator, Scrubber scrubber, BackgroundTransfers background,
            TransferCounters counters, RefusedInput refused) {
        this.background = background;
        this.node = node;
        this.replicator = replicator;
        this.scrubber = scrubber;
        this.counters = counters;
        this.refused = refused;
    }

    /**
     * One page of the live names under the request's prefix after its {@code after}: a seek in the
     * store per {@link #LIST_CHUNK} names, at most {@link #LIST_LIMIT} entries and {@link FileCodec#MAX_LIST_PART_BYTES} bytes of
     * them (so the reply fits one frame whatever the names), {@code more} when the store holds more.
     */
    void onList(NetAddress from, ListReq l) {
        int limit = Math.max(1, Math.min(l.limit(), LIST_LIMIT));
        List<ListEntry> entries = new ArrayList<>();
        int bytes = 0;
        boolean more = false;
        String after = l.after();
        // read the store a chunk at a time (a seek each), so a page cut short by bytes decodes few more than it sends
        scan:
        while (true) {
            int want = Math.min(limit + 1 - entries.size(), LIST_CHUNK);
            List<Listed> chunk = l.deleted()
                    ? node.manifests().listingWithDeleted(l.prefix(), after, want) : node.manifests().listing(l.prefix(), after, want);
            for (Listed m : chunk) {
                ListEntry e = new ListEntry(m.name(), m.size(), m.blockSize(), m.policy(), m.uploadedAt(),
                        m.createdMillis(), m.meta());
                int size = FileCodec.listEntrySize(e);
                if (entries.size() == limit || (bytes + size > FileCodec.MAX_LIST_PART_BYTES && !entries.isEmpty())) {
                    more = true;
                    break scan;
                }
                bytes += size;
                entries.add(e);
            }
            if (chunk.size() < want) {
                break;
            }
            after = chunk.get(chunk.size() - 1).name();
        }
        node.send(from, new ListPart(l.req(), entries, more));
    }

    void onStat(NetAddress from, StatReq s) {
        Version version;
        try {
            version = Downloads.parseVersion(s.version());
        } catch (IllegalArgumentException e) {
            node.send(from, new Failed(s.req(), FailureCode.INVALID, e.getMessage()));
            return;
        }
        ManifestLookup.find(node, s.name(), version, m -> {
            if (m.isPresent() && (version != null || !m.get().deleted())) {
                sendPending(from, s.req(), m.get());
                Downloads.sendManifest(node, from, s.req(), m.get());
            } else {
                node.send(from, new Failed(s.req(), FailureCode.NOT_FOUND, Downloads.missing(s.name(), version, m)));
            }
        });
    }

    /** Every version kept of a name, newest first, tombstones included. */
    void onVersions(NetAddress from, VersionsReq v) {
        ManifestLookup.history(node, v.name(), h -> {
            if (h.isEmpty() || h.get().current().isEmpty()) {
                node.send(from, new Failed(v.req(), FailureCode.NOT_FOUND, "no such file '" + v.name() + "' (no version of it is kept here)"));
                return;
            }
            List<VersionEntry> all = new ArrayList<>();
            List<Manifest> versions = h.get().versions();
            for (int i = versions.size() - 1; i >= 0; i--) {
                Manifest m = versions.get(i);
                if (m.purged()) {
                    continue; // taken out of the history: never shown
                }
                all.add(new VersionEntry(m.version().clock(), m.version().region(), m.size(), m.uploadedAt(),
                        m.createdMillis(), m.locEpoch(), m.deleted(), m.meta()));
            }
            for (int at = 0; at < all.size(); at += VERSIONS_PER_MESSAGE) {
                int to = Math.min(all.size(), at + VERSIONS_PER_MESSAGE);
                node.send(from, new VersionList(v.req(), List.copyOf(all.subList(at, to)), to < all.size()));
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

    /** Where status reads the block collector's figures. */
    void gcStatus(Supplier<ClientOp.Gc> gc) {
        this.gc = gc;
    }

    /** Where status reads what the members run (null: nothing, as a node of file protocol 4 answered). */
    void versionsStatus(Supplier<ClientOp.Versions> versions) {
        this.versions = versions;
    }

    private Supplier<ClientOp.Versions> versions = () -> null;

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
                background.status(replicator.size()), gc.get(), versions.get());
    }

    /**
     * Deletes the name: a tombstone stamped above the version found, stored here and published to
     * the peers that are up (the others get it by anti-entropy). A name without a live version is
     * NOT_FOUND, unless the tombstone is marked {@link Manifest#META_KEEP} (an S3 delete marker in a
     * versioned bucket, a version of its own). The earlier versions stay, readable
     * with {@code get --version}, until the retention drops them.
     */
    void onDelete(NetAddress client, DeleteReq d) {
        try {
            Manifest.validateMeta(d.meta());
        } catch (IllegalArgumentException e) {
            node.send(client, new Failed(d.req(), FailureCode.INVALID, e.getMessage()));
            return;
        }
        if (!d.condition().none()) {
            deleteIf(client, d);
            return;
        }
        ManifestLookup.find(node, d.name(), found -> {
            if (found.isEmpty() && !d.meta().containsKey(Manifest.META_KEEP)) { // a kept tombstone is a version of its own
                node.send(client, new Failed(d.req(), FailureCode.NOT_FOUND, "no such file '" + d.name() + "'"));
                return;
            }
            Manifest t;
            try {
                t = node.versions().delete(d.name(), d.meta());
            } catch (IOException e) {
                node.send(client, Failure.ofStorage(e).prefixed("storing the delete of '" + d.name() + "' failed: ").reply(d.req()));
                return;
            }
            String kept = "; earlier versions kept for " + duration(node.settings().versionRetentionMs());
            new ManifestPublisher(node, t, unreached -> node.send(client, new Committed(d.req(), t.version().id(),
                    "deleted" + kept + (unreached.isEmpty() ? "" : "; not yet at " + unreached
                            + " (anti-entropy brings it when they are reachable)")))).start();
        });
    }

    /**
     * Purges one version of the name (S3's DeleteObject with a versionId): its stub is stored here
     * ({@link Versions#purge}) and published to the peers that are up (anti-entropy brings it to the
     * others, and every copy of the version yields to it). Answers Committed with the version's id.
     */
    void onPurge(NetAddress client, ClientOp.PurgeReq p) {
        Version version;
        try {
            Manifest.validateName(p.name());
            version = Version.parse(p.version());
        } catch (IllegalArgumentException | NullPointerException e) {
            node.send(client, new Failed(p.req(), FailureCode.INVALID, "purge: " + e.getMessage()));
            return;
        }
        ManifestLookup.find(node, p.name(), version, found -> {
            if (found.isEmpty()) {
                node.send(client, new Failed(p.req(), FailureCode.NOT_FOUND, "no version " + version.id() + " of '" + p.name() + "'"));
                return;
            }
            Optional<Manifest> purged;
            String what = "storing the purge of " + version.id() + " of '" + p.name() + "' failed: ";
            try {
                purged = node.versions().purge(p.name(), version);
            } catch (IOException e) {
                node.send(client, Failure.ofStorage(e).prefixed(what).reply(p.req()));
                return;
            }
            if (purged.isEmpty()) {
                node.send(client, new Failed(p.req(), FailureCode.INTERNAL, what + "the version vanished"));
                return;
            }
            Manifest stub = purged.get();
            new ManifestPublisher(node, stub, unreached -> node.send(client, new Committed(p.req(), version.id(),
                    "purged" + (unreached.isEmpty() ? "" : "; not yet at " + unreached
                            + " (anti-entropy brings it when they are reachable)")))).start();
        });
    }

    /**
     * A conditional delete (S3's DeleteObject with If-Match): the name's owner region checks the
     * condition against its live version and stores the tombstone before answering
     * ({@link CreateIfAbsent}); this node then stores and publishes it as any delete.
     */
    private void deleteIf(NetAddress client, DeleteReq d) {
        try {
            Manifest.validateName(d.name());
            Manifest.validateMeta(d.meta());
        } catch (IllegalArgumentException e) {
            node.send(client, new Failed(d.req(), FailureCode.INVALID, e.getMessage()));
            return;
        }
        String owner = node.ownerOf(d.name());
        if (!owner.equals(node.region()) && !node.rtt().isUp(owner)) {
            node.send(client, new Failed(d.req(), FailureCode.UNAVAILABLE,
                    CreateIfAbsent.ownerDown(node, d.name(), owner, d.condition())));
            return;
        }
        long wall = node.wallMillis();
        Manifest draft = Manifest.tombstone(d.name(), "t" + Long.toHexString(node.random().nextLong()), node.region(),
                wall, Version.legacy(wall, node.region())).withMeta(d.meta());
        CreateIfAbsent.claim(node, draft, d.condition(), t -> {
            String kept = "; earlier versions kept for " + duration(node.settings().versionRetentionMs());
            new ManifestPublisher(node, t, unreached -> node.send(client, new Committed(d.req(), t.version().id(),
                    "deleted" + kept + (unreached.isEmpty() ? "" : "; not yet at " + unreached
                            + " (anti-entropy brings it when they are reachable)")))).start();
        }, why -> node.send(client, why.prefixed("delete of '" + d.name() + "' refused: ").reply(d.req())));
    }

    /** A duration for people: whole days, hours, minutes or seconds. */
    static String duration(long ms) {
        long[] units = {86_400_000L, 3_600_000L, 60_000L, 1000L};
        String[] names = {" d", " h", " min", " s"};
        for (int i = 0; i < units.length; i++) {
            if (ms >= units[i] && ms % units[i] == 0) {
                return ms / units[i] + names[i];
            }
        }
        return ms + " ms";
    }
}
