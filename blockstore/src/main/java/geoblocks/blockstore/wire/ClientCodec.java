package geoblocks.blockstore.wire;

import static geoblocks.blockstore.wire.Fields.cond;
import static geoblocks.blockstore.wire.Fields.longs;
import static geoblocks.blockstore.wire.Fields.meta;
import static geoblocks.blockstore.wire.Fields.strings;

import geoblocks.blockstore.wire.ClientOp.*;
import geoblocks.net.MalformedMessageException;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of the client family ({@link ClientOp}) in the file protocol: each op's tag and how its
 * fields are read and written (layouts in {@link FileCodec} and {@link Fields}). Tags are the
 * protocol: never reuse or renumber one.
 */
final class ClientCodec {
    private ClientCodec() {}

    static final List<OpRow<?>> ROWS = List.of(
            OpRow.of(1, PutBegin.class,
                    (req, r) -> new PutBegin(req, r.str(), r.i64(), r.i32(), r.str(), r.str(), cond(r), meta(r)),
                    (p, o) -> {
                        o.str(p.name()); o.i64(p.size()); o.i32(p.blockSize()); o.str(p.policy()); o.str(p.ack());
                        cond(o, p.condition()); meta(o, p.meta());
                    }),
            OpRow.of(2, PutData.class,
                    (req, r) -> new PutData(req, r.i32(), r.i32(), r.i32(), r.bool(), r.bytes(), r.u8(), r.i32()),
                    (p, o) -> {
                        o.i32(p.block()); o.i32(p.offset()); o.i32(p.blockCrc()); o.bool(p.last()); o.bytes(p.data());
                        o.u8(p.codec()); o.i32(p.rawCrc());
                    }),
            OpRow.of(3, GetBegin.class, (req, r) -> new GetBegin(req, r.str(), r.str()),
                    (p, o) -> { o.str(p.name()); o.str(p.version()); }),
            OpRow.of(4, GetAck.class, (req, r) -> new GetAck(req, r.i64()), (p, o) -> o.i64(p.consumed())),
            OpRow.of(5, ListReq.class, (req, r) -> new ListReq(req, r.str(), r.str(), r.i32(), r.bool()),
                    (p, o) -> { o.str(p.prefix()); o.str(p.after()); o.i32(p.limit()); o.bool(p.deleted()); }),
            OpRow.of(6, StatReq.class, (req, r) -> new StatReq(req, r.str(), r.str()),
                    (p, o) -> { o.str(p.name()); o.str(p.version()); }),
            OpRow.of(7, DeleteReq.class, (req, r) -> new DeleteReq(req, r.str(), cond(r), meta(r)),
                    (p, o) -> { o.str(p.name()); cond(o, p.condition()); meta(o, p.meta()); }),
            OpRow.of(8, StatusReq.class, (req, r) -> new StatusReq(req), (p, o) -> { }),
            OpRow.of(9, PutProgress.class, (req, r) -> new PutProgress(req, r.i64()), (p, o) -> o.i64(p.durableBytes())),
            OpRow.of(10, GetData.class, (req, r) -> new GetData(req, r.i64(), r.tail()),
                    (p, o) -> { o.i64(p.offset()); o.tail(p.data()); }),
            OpRow.of(11, ListPart.class, ClientCodec::listPart, (p, o) -> {
                o.u16(p.entries().size());
                for (ListEntry e : p.entries()) {
                    entry(o, e);
                }
                o.bool(p.more());
            }),
            OpRow.of(12, StatusReply.class, ClientCodec::statusReply, ClientCodec::statusReply),
            OpRow.of(25, StatPending.class, (req, r) -> {
                boolean known = r.bool();
                int n = r.count();
                List<PendingCopy> copies = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    copies.add(new PendingCopy(r.i32(), r.str()));
                }
                return new StatPending(req, known, copies);
            }, (p, o) -> {
                o.bool(p.known());
                o.u16(p.copies().size());
                for (PendingCopy c : p.copies()) {
                    o.i32(c.block()); o.str(c.region());
                }
            }),
            OpRow.of(26, PoliciesReq.class, (req, r) -> new PoliciesReq(req), (p, o) -> { }),
            OpRow.of(27, PoliciesReply.class, (req, r) -> {
                String region = r.str();
                int n = r.count();
                List<PolicyInfo> policies = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    policies.add(new PolicyInfo(r.str(), r.str(), r.i32(), r.str()));
                }
                return new PoliciesReply(req, region, policies);
            }, (p, o) -> {
                o.str(p.region());
                o.u16(p.policies().size());
                for (PolicyInfo i : p.policies()) {
                    o.str(i.name()); o.str(i.kind()); o.i32(i.copies()); o.str(i.rules());
                }
            }),
            OpRow.of(28, MoveReq.class, (req, r) -> new MoveReq(req, r.str(), strings(r)),
                    (p, o) -> { o.str(p.name()); strings(o, p.regions()); }),
            OpRow.of(31, VersionsReq.class, (req, r) -> new VersionsReq(req, r.str()), (p, o) -> o.str(p.name())),
            OpRow.of(32, VersionList.class, (req, r) -> {
                int n = r.count();
                List<VersionEntry> versions = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    versions.add(new VersionEntry(r.i64(), r.str(), r.i64(), r.str(), r.i64(), r.i64(), r.bool(), meta(r)));
                }
                return new VersionList(req, versions, r.bool());
            }, (p, o) -> {
                o.u16(p.versions().size());
                for (VersionEntry v : p.versions()) {
                    o.i64(v.clock()); o.str(v.clockRegion()); o.i64(v.size()); o.str(v.uploadedAt());
                    o.i64(v.createdMillis()); o.i64(v.locEpoch()); o.bool(v.deleted()); meta(o, v.meta());
                }
                o.bool(p.more());
            }),
            OpRow.of(33, Committed.class, (req, r) -> new Committed(req, r.str(), r.str()),
                    (p, o) -> { o.str(p.version()); o.str(p.info()); }),
            OpRow.of(45, GetRead.class, (req, r) -> new GetRead(req, r.str(), r.str(), r.str(), r.str()),
                    (p, o) -> { o.str(p.name()); o.str(p.version()); o.str(p.read()); o.str(p.rank()); }),
            OpRow.of(49, GetRange.class, (req, r) -> new GetRange(req, r.str(), r.str(), r.str(), r.str(), r.i64(), r.i64()),
                    (p, o) -> {
                        o.str(p.name()); o.str(p.version()); o.str(p.read()); o.str(p.rank()); o.i64(p.first());
                        o.i64(p.last());
                    }),
            OpRow.of(57, Waiting.class, (req, r) -> new Waiting(req, r.i64()), (p, o) -> o.i64(p.waitedMillis())),
            OpRow.of(54, ClusterReq.class, (req, r) -> new ClusterReq(req, r.str(), r.str(), r.str(), r.str(), r.i64(), r.bool(),
                    r.more() ? r.str() : ""),
                    (p, o) -> {
                        o.str(p.action()); o.str(p.region()); o.str(p.address()); o.str(p.zone());
                        o.i64(p.capacityBytes()); o.bool(p.force());
                        if (!p.key().isEmpty()) {
                            o.str(p.key()); // trailing, only when named: a request without a key encodes as before
                        }
                    }),
            OpRow.of(55, ClusterReply.class, (req, r) -> {
                byte[] layout = r.bytes();
                int n = r.count();
                List<RegionReport> regions = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    regions.add(new RegionReport(r.str(), r.i64(), r.i64(), r.i64(), r.i64(), r.i64()));
                }
                return new ClusterReply(req, layout, regions, strings(r));
            }, (p, o) -> {
                o.bytes(p.layout());
                o.u16(p.regions().size());
                for (RegionReport g : p.regions()) {
                    o.str(g.region()); o.i64(g.reportedVersion()); o.i64(g.replicas()); o.i64(g.bytes()); o.i64(g.pendingVersions());
                    o.i64(g.shortBytes());
                }
                strings(o, p.warnings());
            }),
            OpRow.of(56, PurgeReq.class, (req, r) -> new PurgeReq(req, r.str(), r.str()),
                    (p, o) -> { o.str(p.name()); o.str(p.version()); }));

    private static ListPart listPart(long req, Fields.In r) throws MalformedMessageException {
        int n = r.count();
        List<ListEntry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            entries.add(new ListEntry(r.str(), r.i64(), r.i32(), r.str(), r.str(), r.i64(), meta(r)));
        }
        return new ListPart(req, entries, r.bool());
    }

    private static StatusReply statusReply(long req, Fields.In r) throws MalformedMessageException {
        String region = r.str();
        int n = r.count();
        List<PeerRtt> peers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            peers.add(new PeerRtt(r.str(), Double.longBitsToDouble(r.i64())));
        }
        long malformed = r.i64();
        long unauthenticated = r.i64();
        long scrubbed = r.i64();
        long repaired = r.i64();
        long unrepairable = r.i64();
        Transfers transfers = new Transfers(r.i64(), r.i64(), r.i64(), r.i64(), r.i64(), r.i64());
        long queuedBytes = r.i64();
        int queuedCopies = r.i32();
        int m = r.count();
        List<LedbatPeer> flows = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            flows.add(new LedbatPeer(r.str(), r.bool(), r.i32(), r.i64(), r.i64(), r.i64(),
                    Double.longBitsToDouble(r.i64()), Double.longBitsToDouble(r.i64()),
                    Double.longBitsToDouble(r.i64()), r.i64()));
        }
        Gc gc = new Gc(r.i64(), r.i64(), r.i64(), r.bool(), r.i64(), r.i64(), r.i64(), r.i64(), r.i64(), r.i32());
        if (r.more()) {
            // appended after the rest (a reply of an older node has none): each LEDBAT peer's path MTU
            int k = r.count();
            if (k != m) {
                throw new MalformedMessageException(k + " path MTUs for " + m + " LEDBAT peers");
            }
            for (int i = 0; i < m; i++) {
                flows.set(i, flows.get(i).withPathMtu(r.i32()));
            }
        }
        Versions versions = null;
        if (r.more()) {
            // appended after the path MTUs (file protocol 5 on): how long each LEDBAT flow has been stalled, then what
            // the members run
            int stalls = r.count();
            if (stalls != m) {
                throw new MalformedMessageException(stalls + " stall times for " + m + " LEDBAT peers");
            }
            for (int i = 0; i < m; i++) {
                long stalled = r.i64();
                if (stalled < 0) {
                    throw new MalformedMessageException("a LEDBAT flow stalled for " + stalled + " ms");
                }
                flows.set(i, flows.get(i).stalledFor(stalled));
            }
            String build = r.str();
            String cluster = r.str();
            String note = r.str();
            int k = r.count();
            List<MemberBuild> members = new ArrayList<>(k);
            for (int i = 0; i < k; i++) {
                members.add(new MemberBuild(r.str(), r.str(), r.i32()));
            }
            versions = new Versions(build, cluster, note, members);
        }
        Background background = new Background(queuedBytes, queuedCopies, flows);
        return new StatusReply(req, region, peers, malformed, unauthenticated, scrubbed, repaired, unrepairable,
                transfers, background, gc, versions);
    }

    private static void statusReply(StatusReply p, Fields.Out o) {
        o.str(p.region());
        o.u16(p.peers().size());
        for (PeerRtt peer : p.peers()) {
            o.str(peer.region()); o.i64(Double.doubleToLongBits(peer.rttMs()));
        }
        o.i64(p.malformed()); o.i64(p.unauthenticated());
        o.i64(p.scrubbed()); o.i64(p.repaired()); o.i64(p.unrepairable());
        Transfers t = p.transfers();
        o.i64(t.tcpSent()); o.i64(t.tcpReceived()); o.i64(t.ledbatSent()); o.i64(t.ledbatReceived());
        o.i64(t.tcpBackgroundSent()); o.i64(t.tcpBackgroundReceived());
        Background b = p.background();
        o.i64(b.queuedBytes()); o.i32(b.queuedCopies());
        o.u16(b.peers().size());
        for (LedbatPeer l : b.peers()) {
            o.str(l.region()); o.bool(l.active()); o.i32(l.streams()); o.i64(l.cwndBytes()); o.i64(l.queuedBytes());
            o.i64(l.inFlightBytes()); o.i64(Double.doubleToLongBits(l.queuingDelayMs()));
            o.i64(Double.doubleToLongBits(l.baseDelayMs())); o.i64(Double.doubleToLongBits(l.rttMs()));
            o.i64(l.retransmissions());
        }
        Gc g = p.gc();
        o.i64(g.collectedBlocks()); o.i64(g.collectedBytes()); o.i64(g.passes()); o.bool(g.running());
        o.i64(g.passChecked()); o.i64(g.passCollected()); o.i64(g.passInFlight()); o.i64(g.lastPassEndMillis());
        o.i64(g.settledSinceMillis()); o.i32(g.moves());
        if (!b.peers().isEmpty() || p.versions() != null) {
            // appended after the rest, and only when there are peers (or versions follow): a reply without
            // them encodes as before; a reader of the older layout refuses one with them (bytes after the message)
            o.u16(b.peers().size());
            for (LedbatPeer l : b.peers()) {
                o.i32(l.pathMtuBytes());
            }
        }
        Versions v = p.versions();
        if (v != null) {
            // file protocol 5 on (FileCodec writes a reply to an older peer without it)
            o.u16(b.peers().size());
            for (LedbatPeer l : b.peers()) {
                o.i64(l.stalledForMs());
            }
            o.str(v.build());
            o.str(v.clusterVersion());
            o.str(v.finalizeNote());
            o.u16(v.members().size());
            for (MemberBuild m : v.members()) {
                o.str(m.region()); o.str(m.build()); o.i32(m.fileProtocol());
            }
        }
    }

    /** Bytes {@code e} takes in a {@link ListPart} (see {@link FileCodec#MAX_LIST_PART_BYTES}). */
    static int listEntrySize(ListEntry e) {
        Fields.Counter c = new Fields.Counter();
        entry(c, e);
        return c.n;
    }

    private static void entry(Fields.Out o, ListEntry e) {
        o.str(e.name()); o.i64(e.size()); o.i32(e.blockSize()); o.str(e.policy());
        o.str(e.uploadedAt()); o.i64(e.createdMillis()); meta(o, e.meta());
    }
}
