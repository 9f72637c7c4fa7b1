package geoblocks.blockstore.client;

import geoblocks.blockstore.wire.BenchOp;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.blockstore.wire.ClientOp.ListPart;
import geoblocks.blockstore.wire.ClientOp.ListReq;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The one-request operations: list (paged), stat, versions, delete, status, move and policies. */
final class SimpleTransfers {
    private SimpleTransfers() {}

    /**
     * Sends one request and finishes on {@link Done}, {@link ClientOp.Committed}, {@link StatusReply},
     * {@link ClientOp.PoliciesReply}, {@link ClientOp.ClusterReply}, {@link BenchOp.NetBenchResult} or {@link Failed}; {@link ClientOp.PutProgress} on the way (a move's
     * copied bytes) is passed on as progress.
     */
    static Transfer oneShot(ClientComponent client, long op, FileOp request) {
        return new Transfer() {
            @Override
            public void start() {
                client.send(request);
            }

            @Override
            public void onReply(FileOp reply) {
                if (reply instanceof Done d) {
                    client.finish(op, null, d.info());
                } else if (reply instanceof ClientOp.Committed c) {
                    client.finish(op, null, new ClientPort.Written(c.version(), c.info()));
                } else if (reply instanceof StatusReply s) {
                    client.finish(op, null, s);
                } else if (reply instanceof ClientOp.ClusterReply c) {
                    client.finish(op, null, c);
                } else if (reply instanceof ClientOp.PoliciesReply p) {
                    client.finish(op, null, p);
                } else if (reply instanceof BenchOp.NetBenchResult r) {
                    client.finish(op, null, r);
                } else if (reply instanceof Failed f) {
                    client.finish(op, Failure.of(f), null);
                } else if (reply instanceof ClientOp.PutProgress p) {
                    client.progress(op, p.durableBytes(), -1);
                }
            }
        };
    }

    /** Sends a stat and finishes with a FileStat: the pending copies the node lists, then the manifest in parts. */
    static Transfer stat(ClientComponent client, long op, FileOp request) {
        return new Transfer() {
            Assembly parts;
            boolean known;
            final Map<Integer, List<String>> pending = new TreeMap<>();

            @Override
            public void start() {
                client.send(request);
            }

            @Override
            public void onReply(FileOp reply) throws IOException {
                if (reply instanceof ClientOp.StatPending p) {
                    known |= p.known();
                    for (ClientOp.PendingCopy c : p.copies()) {
                        pending.computeIfAbsent(c.block(), k -> new ArrayList<>()).add(c.region());
                    }
                } else if (reply instanceof ManifestPart p) {
                    if (parts == null) {
                        parts = new Assembly(p.total(), GetTransfer.MAX_MANIFEST);
                    }
                    if (parts.add(p.offset(), p.data())) {
                        client.finish(op, null, new ClientPort.FileStat(ManifestCodec.decode(parts.bytes()), known,
                                Map.copyOf(pending)));
                    }
                } else if (reply instanceof Failed f) {
                    client.finish(op, Failure.of(f), null);
                }
            }
        };
    }

    /** Collects the versions of a name, sent newest first over one or more messages. */
    static Transfer versions(ClientComponent client, long op, FileOp request) {
        return new Transfer() {
            final List<ClientOp.VersionEntry> all = new ArrayList<>();

            @Override
            public void start() {
                client.send(request);
            }

            @Override
            public void onReply(FileOp reply) {
                if (reply instanceof ClientOp.VersionList l) {
                    all.addAll(l.versions());
                    if (!l.more()) {
                        client.finish(op, null, List.copyOf(all));
                    }
                } else if (reply instanceof Failed f) {
                    client.finish(op, Failure.of(f), null);
                }
            }
        };
    }

    /** Entries asked per page when listing everything (the node caps pages by count and bytes). */
    static final int PAGE = 1000;

    /** Pages through the node's file list. */
    static Transfer list(ClientComponent client, long op) {
        return new Transfer() {
            final List<ListEntry> all = new ArrayList<>();

            @Override
            public void start() {
                client.send(new ListReq(op, "", "", PAGE));
            }

            @Override
            public void onReply(FileOp reply) {
                if (reply instanceof ListPart p) {
                    all.addAll(p.entries());
                    if (p.more() && !p.entries().isEmpty()) {
                        client.send(new ListReq(op, "", p.entries().get(p.entries().size() - 1).name(), PAGE));
                    } else {
                        client.finish(op, null, List.copyOf(all));
                    }
                } else if (reply instanceof Failed f) {
                    client.finish(op, Failure.of(f), null);
                }
            }
        };
    }

    /** One page of the node's file list: a {@link ClientPort.Listing}. */
    static Transfer page(ClientComponent client, long op, ClientPort.ListPage request) {
        return new Transfer() {
            @Override
            public void start() {
                client.send(new ListReq(op, request.prefix(), request.after(), request.limit(), request.deleted()));
            }

            @Override
            public void onReply(FileOp reply) {
                if (reply instanceof ListPart p) {
                    client.finish(op, null, new ClientPort.Listing(p.entries(), p.more() && !p.entries().isEmpty()));
                } else if (reply instanceof Failed f) {
                    client.finish(op, Failure.of(f), null);
                }
            }
        };
    }
}
