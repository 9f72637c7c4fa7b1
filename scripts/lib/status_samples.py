"""b's `client status --every 0.5 --json` samples, as the real-link scripts read them
(node-real-link.sh, rebalance-real-link.sh): per-class byte counters over time, rates between two
times, and per-class rates over a trailing window written as a CSV for `plot-series`."""
import json
import os
import sys


def load(out):
    """(time_ms, foreground bytes received, background bytes received) per sample in OUT/status-b.jsonl."""
    rows = []
    for line in open(os.path.join(out, "status-b.jsonl")):
        line = line.strip()
        if line.startswith("{"):
            s = json.loads(line)
            t = s["transfers"]
            rows.append((s["time_ms"], t["foreground"]["bytes_received"], t["background"]["bytes_received"]))
    if len(rows) < 4:
        sys.exit("error: too few status samples from b (%d); see %s/status-b.err" % (len(rows), out))
    return rows


def at(rows, t_ms, col):
    """Counter value at t_ms, interpolated between samples."""
    prev = rows[0]
    for r in rows:
        if r[0] >= t_ms:
            if r[0] == prev[0]:
                return r[col]
            return prev[col] + (r[col] - prev[col]) * (t_ms - prev[0]) / (r[0] - prev[0])
        prev = r
    return rows[-1][col]


def mbps(rows, col, t0, t1):
    """Mbit/s of counter col (1 foreground, 2 background) between t0 and t1 (ms)."""
    return (at(rows, t1, col) - at(rows, t0, col)) * 8 / ((t1 - t0) / 1000.0) / 1e6


def write_csv(rows, out):
    """OUT/samples.csv: per-class Mbit/s over a trailing 1.5 s window (three 0.5 s samples). Block
    messages are counted whole (up to 1 MiB each), which makes single 0.5 s intervals jump between 0
    and 2x the link."""
    t_zero = rows[0][0]
    with open(os.path.join(out, "samples.csv"), "w") as f:
        f.write("time_s,foreground_mbps,background_mbps\n")
        for a, b in zip(rows, rows[3:]):
            dt = (b[0] - a[0]) / 1000.0
            f.write("%.2f,%.3f,%.3f\n" % ((b[0] - t_zero) / 1000.0, (b[1] - a[1]) * 8 / dt / 1e6, (b[2] - a[2]) * 8 / dt / 1e6))
