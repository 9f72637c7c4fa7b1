#!/usr/bin/env python3
"""The figures of a "background flow vs TCP" run, computed the same way for the real link and for
the simulator (Python stdlib only).

usage:
  linkmetrics.py real DIR    reads a run of scripts/ledbat-real-link.sh (meta.json, the flows' CSVs,
                             ping.txt), writes DIR/series.csv, DIR/summary.txt and DIR/summary.json
  linkmetrics.py sim DIR     reads `simulate ledbat-vs-tcp --out DIR` (timeseries.csv, summary.csv),
                             writes the same three files

Definitions (t = 0 when the background flow starts; "bg" is LEDBAT, libutp or a second cubic flow;
rates are goodput in Mbit/s per 100 ms, queuing delay in ms):
  alone      mean bg rate over [4 s, tcp_on)
  share      bg / (bg + tcp) over [tcp_on, tcp_off)
  tcp        TCP's mean rate over [tcp_on, tcp_off)
  yield      from tcp_on until bg's trailing 0.5 s mean is below 20 % of alone
  recover    from tcp_off until bg's trailing 0.5 s mean is back at >= 90 % of alone
  qdelay     mean queuing delay over [4 s, tcp_on) (real link: ping RTT minus the run's minimum;
             simulator: the delay packets met at the bottleneck)
  after      mean bg rate over [tcp_off + 3 s, end)
Times are None ("never") when the event does not happen before the window ends.
"""
import csv
import glob
import json
import math
import os
import re
import sys

STEP = 0.1


def mean(xs):
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    return sum(xs) / len(xs) if xs else float("nan")


def window(series, a, b):
    """Values of a [(t, v)] series with a <= t < b (t is the end of each 100 ms bin)."""
    return [v for (t, v) in series if a <= t < b]


def trailing(series, t, w=0.5):
    return mean([v for (x, v) in series if t - w < x <= t + 1e-9])


def first_time(series, a, b, pred):
    """First t in (a, b] whose trailing 0.5 s mean satisfies pred, as t - a; None if none."""
    for (t, _) in series:
        if a < t <= b + 1e-9 and pred(trailing(series, t)):
            return round(t - a, 2)
    return None


def figures(bg, tcp, qdelay, tcp_on, tcp_off, end, alone_from=4.0):
    """The figures above from [(t, mbps)] series bg and tcp and a [(t, ms)] series qdelay."""
    alone = mean(window(bg, alone_from, tcp_on))
    during = mean(window(bg, tcp_on, tcp_off))
    tcp_during = mean(window(tcp, tcp_on, tcp_off))
    share = during / (during + tcp_during) if during + tcp_during > 0 else float("nan")
    return {
        "alone_mbps": alone,
        "share": share,
        "bg_during_mbps": during,
        "tcp_mbps": tcp_during,
        "yield_s": first_time(bg, tcp_on, tcp_off, lambda m: m < 0.2 * alone),
        "recover_s": first_time(bg, tcp_off, end, lambda m: m >= 0.9 * alone),
        "qdelay_alone_ms": mean(window(qdelay, alone_from, tcp_on)),
        "qdelay_during_ms": mean(window(qdelay, tcp_on, tcp_off)),
        "after_mbps": mean(window(bg, tcp_off + 3, end + 1e-9)),
        "bg_per_s_during": [round(mean(window(bg, tcp_on + k, tcp_on + k + 1)), 2)
                            for k in range(int(round(tcp_off - tcp_on)))],
        "tcp_per_s_during": [round(mean(window(tcp, tcp_on + k, tcp_on + k + 1)), 2)
                             for k in range(int(round(tcp_off - tcp_on)))],
    }


def bins_to_series(path, start_ms):
    """A flowtool CSV (epoch_ms of each 100 ms bin, bytes) as [(t, mbps)], t = end of the bin."""
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            rows[int(r["epoch_ms"])] = int(r["bytes"])
    if not rows:
        return []
    lo, hi = min(rows), max(rows)
    lo = min(lo, start_ms // 100 * 100)
    out = []
    for k in range(lo, hi + 100, 100):
        t = round((k + 100 - start_ms) / 1000.0, 3)
        if t > 0:
            out.append((t, rows.get(k, 0) * 8 / 0.1 / 1e6))
    return out


def ledbat_series(logdir):
    """The LEDBAT client's stream CSVs (sender side, bytes acknowledged per 100 ms), summed."""
    agg = {}
    for fn in sorted(glob.glob(os.path.join(logdir, "stream-*.csv"))):
        with open(fn) as f:
            for r in csv.DictReader(f):
                t = round(float(r["time_s"]), 1)
                agg[t] = agg.get(t, 0.0) + float(r["throughput_mbps"])
    return sorted(agg.items())


PING = re.compile(r"^\[(\d+\.\d+)\].*time=([\d.]+) ms")


def ping_series(path, start_ms):
    """ping -D output as [(t, queuing delay ms)] at each probe's send time; minimum RTT = no queue."""
    pts = []
    with open(path) as f:
        for line in f:
            m = PING.match(line)
            if m:
                rtt = float(m.group(2))
                pts.append((float(m.group(1)) - rtt / 1000.0, rtt))
    if not pts:
        return [], float("nan")
    base = min(r for (_, r) in pts)
    return [(round(ts - start_ms / 1000.0, 3), r - base) for (ts, r) in pts], base


def rate_bps(rate):
    """tc's rate syntax (20mbit, 500kbit, 1gbit) in bit/s."""
    m = re.match(r"^([\d.]+)([kmg]?)bit$", rate.strip().lower())
    if not m:
        return float("nan")
    return float(m.group(1)) * {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2)]


QDISC = re.compile(r"^(\d+) Sent (\d+) bytes (\d+) pkt")


def link_use(path, start_ms, a, b, rate):
    """Bytes the bottleneck qdisc sent between the samples nearest a and b s (its own counter, so
    every header and every flow counts): (fraction of the nominal rate, mean packet size)."""
    pts = []
    with open(path) as f:
        for line in f:
            m = QDISC.match(line)
            if m:
                pts.append(((int(m.group(1)) - start_ms) / 1000.0, int(m.group(2)), int(m.group(3))))
    inside = [p for p in pts if a <= p[0] <= b]
    if len(inside) < 2:
        return float("nan"), float("nan")
    (t0, b0, p0), (t1, b1, p1) = inside[0], inside[-1]
    return (b1 - b0) * 8 / (t1 - t0) / rate_bps(rate), (b1 - b0) / max(1, p1 - p0)


def real(d):
    meta = json.load(open(os.path.join(d, "meta.json")))
    start = meta["start_epoch_ms"]
    if meta["impl"] == "geoblocks":
        bg = ledbat_series(os.path.join(d, "log"))
    elif meta["impl"] == "none":
        bg = []   # TCP alone: the reference for TCP's own ramp and rate
    else:
        bg = bins_to_series(os.path.join(d, "bg.csv"), start)
    tcp = bins_to_series(os.path.join(d, "tcp.csv"), start) if os.path.exists(os.path.join(d, "tcp.csv")) else []
    qd, base = ping_series(os.path.join(d, "ping.txt"), start) if os.path.exists(os.path.join(d, "ping.txt")) else ([], None)
    tcp_on = (meta["tcp_start_epoch_ms"] - start) / 1000.0
    tcp_off = (meta["tcp_stop_epoch_ms"] - start) / 1000.0
    f = figures(bg, tcp, qd, tcp_on, tcp_off, meta["duration_s"])
    qdisc = os.path.join(d, "qdisc.txt")
    if os.path.exists(qdisc):
        f["link_use_alone"], f["packet_bytes_alone"] = link_use(qdisc, start, 4.0, tcp_on, meta["rate"])
    f.update({"source": "real", "impl": meta["impl"], "rtt_ms": meta["rtt_ms"], "rate": meta["rate"],
              "tcp_on_s": round(tcp_on, 3), "tcp_off_s": round(tcp_off, 3), "min_ping_ms": base,
              "load": meta.get("load")})
    return f, bg, tcp, qd


def sim(d):
    summ = {}
    with open(os.path.join(d, "summary.csv")) as f:
        for r in csv.reader(f):
            if len(r) == 2:
                summ[r[0]] = r[1]
    m = re.match(r"\S+ ([\d.]+)-([\d.]+) s", summ["tcp"])
    tcp_on, tcp_off = float(m.group(1)), float(m.group(2))
    bg, tcp, qd = {}, {}, {}
    end = 0.0
    with open(os.path.join(d, "timeseries.csv")) as f:
        for r in csv.DictReader(f):
            t = round(float(r["time_s"]), 1)
            end = max(end, t)
            v = float(r["throughput_mbps"])
            if r["kind"] == "ledbat" or r["flow"].startswith("ledbat"):
                bg[t] = bg.get(t, 0.0) + v
                q = r.get("queuing_delay_ms", "")
                if q not in ("", "NaN", "nan"):
                    qd[t] = max(qd.get(t, 0.0), float(q))
            else:
                tcp[t] = tcp.get(t, 0.0) + v
    bg, tcp, qd = sorted(bg.items()), sorted(tcp.items()), sorted(qd.items())
    f = figures(bg, tcp, qd, tcp_on, tcp_off, end)
    f.update({"source": "sim", "impl": "geoblocks", "rtt_ms": float(summ.get("base_rtt_ms", "nan")),
              "rate": summ.get("rate_mbps"), "tcp_on_s": tcp_on, "tcp_off_s": tcp_off})
    return f, bg, tcp, qd


def fmt_time(v):
    return "never" if v is None else "%.1f s" % v


def report(f):
    return "\n".join([
        "%s %s, RTT %s ms, TCP from %.2f to %.2f s" % (f["source"], f["impl"], f["rtt_ms"], f["tcp_on_s"], f["tcp_off_s"]),
        "alone (4 s to TCP):      %.2f Mbit/s, queuing delay %.1f ms%s" % (f["alone_mbps"], f["qdelay_alone_ms"],
            ", bottleneck busy %.1f %% of its rate (mean packet %.0f bytes on the qdisc)"
            % (100 * f["link_use_alone"], f["packet_bytes_alone"]) if "link_use_alone" in f else ""),
        "while TCP runs:          bg %.2f Mbit/s, TCP %.2f Mbit/s, bg share %.1f %%, queuing delay %.1f ms"
        % (f["bg_during_mbps"], f["tcp_mbps"], 100 * f["share"], f["qdelay_during_ms"]),
        "bg per second during TCP: " + ", ".join("%.1f" % v for v in f["bg_per_s_during"]),
        "TCP per second:           " + ", ".join("%.1f" % v for v in f["tcp_per_s_during"]),
        "time to yield (< 20 %% of alone):   %s" % fmt_time(f["yield_s"]),
        "after TCP (+3 s to end): %.2f Mbit/s" % f["after_mbps"],
        "time to recover (>= 90 %% of alone): %s" % fmt_time(f["recover_s"]),
    ]) + "\n"


def write(d, f, bg, tcp, qd):
    def at(series):
        return {round(t, 1): v for (t, v) in series}
    b, t, q = at(bg), at(tcp), at(qd)
    with open(os.path.join(d, "series.csv"), "w") as out:
        out.write("time_s,bg_mbps,tcp_mbps,qdelay_ms\n")
        for k in sorted(set(b) | set(t)):
            out.write("%.1f,%s,%s,%s\n" % (k, "%.3f" % b[k] if k in b else "", "%.3f" % t[k] if k in t else "",
                                           "%.2f" % q[k] if k in q else ""))
    with open(os.path.join(d, "tcp-series.csv"), "w") as out:   # the format `node.jar ledbat plot --tcp` reads
        out.write("time_s,throughput_mbps\n")
        for (k, v) in tcp:
            out.write("%.1f,%.3f\n" % (k, v))
    with open(os.path.join(d, "summary.txt"), "w") as out:
        out.write(report(f))
    with open(os.path.join(d, "summary.json"), "w") as out:
        json.dump(f, out, indent=1, sort_keys=True)


def main(argv):
    if len(argv) != 2 or argv[0] not in ("real", "sim"):
        print(__doc__, file=sys.stderr)
        return 2
    f, bg, tcp, qd = (real if argv[0] == "real" else sim)(argv[1])
    write(argv[1], f, bg, tcp, qd)
    sys.stdout.write(report(f))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
