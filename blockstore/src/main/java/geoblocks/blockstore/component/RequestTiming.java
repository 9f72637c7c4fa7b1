package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.core.read.RangePlan;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.ClientOp.DeleteReq;
import geoblocks.blockstore.wire.ClientOp.Committed;
import geoblocks.blockstore.wire.FileOp.Done;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.ClientOp.GetRange;
import geoblocks.blockstore.wire.ClientOp.GetRead;
import geoblocks.blockstore.wire.ClientOp.GetData;
import geoblocks.blockstore.wire.ClientOp.ListPart;
import geoblocks.blockstore.wire.ClientOp.ListReq;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.blockstore.wire.ClientOp.MoveReq;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.ClientOp.StatReq;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.StatusReq;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Times the client requests a node serves, from the request's first message to the node's last
 * answer, by watching the ops that come in and go out; the file service's parts stay unaware.
 * What ends a request: {@link Failed} (result "error", or "busy" for a busy refusal); {@link Committed}
 * (the version written) for put and delete, {@link Done} for move (and a delete of nothing); {@link ListPart} for list; {@link StatusReply} for status; the last
 * {@link ManifestPart} for stat; for get, the {@link GetData} that carries the last stored byte
 * of the blocks the download sends (known from the manifest the node sends first, and for a
 * {@link GetRange} its range, see {@link RangePlan}). A request not finished within the
 * expiry age counts as "abandoned". At most {@link #MAX_OPEN} requests are tracked; later ones go
 * untimed. Not thread-safe: the file service owns it.
 */
final class RequestTiming {
    static final int MAX_OPEN = 10_000;
    private final RequestStats stats;
    private final Map<Key, Open> open = new HashMap<>();

    RequestTiming(RequestStats stats) {
        this.stats = stats;
    }

    /** An op from {@code from} arrived at {@code nowNanos}: starts timing it when it begins a client request. */
    void received(NetAddress from, FileOp op, long nowNanos) {
        String kind = kindOf(op);
        if (kind == null || open.size() >= MAX_OPEN) {
            return;
        }
        Open o = new Open(kind, nameOf(op), nowNanos);
        if (op instanceof GetRange g) {
            o.range = new long[] {g.first(), g.last()};
        }
        open.putIfAbsent(new Key(from, op.req()), o);
    }

    /** The node sends {@code op} to {@code to}: ends the request it answers when it is that request's last answer. */
    void sent(NetAddress to, FileOp op, long nowNanos, long nowMillis) {
        if (open.isEmpty()) {
            return;
        }
        Key key = new Key(to, op.req());
        Open o = open.get(key);
        if (o == null) {
            return;
        }
        String result = null;
        String error = "";
        if (op instanceof Failed f) {
            result = f.code() == FailureCode.BUSY ? "busy" : "error";
            error = f.error();
        } else if (op instanceof Done || op instanceof Committed) {
            result = "ok";
        } else if (op instanceof ListPart && o.kind.equals("list")) {
            result = "ok";
        } else if (op instanceof StatusReply && o.kind.equals("status")) {
            result = "ok";
        } else if (op instanceof ManifestPart m && !m.publish()) {
            result = manifestPart(o, m);
        } else if (op instanceof GetData d && o.kind.equals("get") && o.size >= 0
                && d.offset() + d.data().length() >= o.size) {
            result = "ok";
        }
        if (result != null) {
            open.remove(key);
            stats.record(o.kind, result, nowNanos - o.startNanos, nowMillis, o.name, error);
        }
    }

    /** For a stat, the manifest's last part ends it; for a get, it tells the size (an empty file ends here). */
    private static String manifestPart(Open o, ManifestPart m) {
        boolean last = m.offset() + m.data().length >= m.total();
        if (o.kind.equals("stat")) {
            return last ? "ok" : null;
        }
        if (!o.kind.equals("get")) {
            return null;
        }
        try {
            if (o.manifest == null) {
                o.manifest = new Assembly(m.total(), m.total());
            }
            if (o.manifest.add(m.offset(), m.data())) {
                Manifest mf = ManifestCodec.decode(o.manifest.bytes());
                o.manifest = null;
                RangePlan plan = o.range == null ? RangePlan.whole(mf) : RangePlan.of(mf, o.range[0], o.range[1]);
                o.size = plan.storedEnd();
                return plan.blockCount() == 0 ? "ok" : null;
            }
        } catch (IOException | RuntimeException e) {
            o.manifest = null; // cannot tell the size: the request ends as abandoned, never wrongly as ok
        }
        return null;
    }

    /** Ends requests open for longer than {@code maxAgeNanos} as "abandoned" (their client went away, or an answer was not recognised). */
    void expire(long nowNanos, long nowMillis, long maxAgeNanos) {
        List<Key> old = new ArrayList<>();
        open.forEach((k, o) -> {
            if (nowNanos - o.startNanos > maxAgeNanos) {
                old.add(k);
            }
        });
        for (Key k : old) {
            Open o = open.remove(k);
            stats.record(o.kind, "abandoned", nowNanos - o.startNanos, nowMillis, o.name, "no answer ended it");
        }
    }

    int openCount() {
        return open.size();
    }

    /** The operation label of an op that begins a client request, or null. */
    static String kindOf(FileOp op) {
        if (op instanceof PutBegin) {
            return "put";
        } else if (op instanceof GetBegin || op instanceof GetRead || op instanceof GetRange) {
            return "get";
        } else if (op instanceof StatReq) {
            return "stat";
        } else if (op instanceof ListReq) {
            return "list";
        } else if (op instanceof DeleteReq) {
            return "delete";
        } else if (op instanceof StatusReq s && s.req() != FileService.WARM_UP) { // a node's connection warm-up is no request
            return "status";
        } else if (op instanceof MoveReq) {
            return "move";
        }
        return null;
    }

    private static String nameOf(FileOp op) {
        if (op instanceof PutBegin p) {
            return p.name();
        } else if (op instanceof GetBegin g) {
            return g.name();
        } else if (op instanceof GetRead g) {
            return g.name();
        } else if (op instanceof GetRange g) {
            return g.name();
        } else if (op instanceof StatReq s) {
            return s.name();
        } else if (op instanceof DeleteReq d) {
            return d.name();
        } else if (op instanceof MoveReq m) {
            return m.name();
        }
        return "";
    }

    private record Key(NetAddress peer, long req) {}

    private static final class Open {
        final String kind;
        final String name;
        final long startNanos;
        /** Stored offset one past the last byte the get sends. */
        long size = -1;
        /** A ranged get's first and last byte, else null. */
        long[] range;
        Assembly manifest;

        Open(String kind, String name, long startNanos) {
            this.kind = kind;
            this.name = name;
            this.startNanos = startNanos;
        }
    }
}
