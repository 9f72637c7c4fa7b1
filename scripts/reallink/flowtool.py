#!/usr/bin/env python3
"""Byte meters and a timed TCP flow for the real-link scripts (Python stdlib only).

usage:
  flowtool.py sink   --bind IP --port P --out CSV     TCP server: counts the bytes of every
                                                      connection it accepts, until killed
  flowtool.py meter  --out CSV                        counts the bytes read from stdin (e.g. the
                                                      output of a libutp ucat receiver)
  flowtool.py source --connect IP:PORT --start-epoch-ms T --stop-epoch-ms T2 [--cc cubic]
                                                      waits until T, connects, sends until T2, closes

The CSV of sink and meter has a row per 100 ms bin in which bytes arrived:
epoch_ms (start of the bin, wall clock), bytes. It is rewritten every second and on SIGTERM, so a
killed meter leaves its data. Wall-clock times let the analysis put every flow (and ping) of a run
on one time axis: all processes run on the same machine.
"""
import argparse
import os
import select
import signal
import socket
import sys
import time

BIN_MS = 100


class Bins:
    """Bytes per 100 ms bin of wall-clock time; written to a CSV file."""

    def __init__(self, path):
        self.path = path
        self.bins = {}
        self.last_write = 0.0

    def add(self, nbytes, now=None):
        now = time.time() if now is None else now
        b = int(now * 1000) // BIN_MS * BIN_MS
        self.bins[b] = self.bins.get(b, 0) + nbytes
        if now - self.last_write >= 1.0:
            self.write()

    def write(self):
        self.last_write = time.time()
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write("epoch_ms,bytes\n")
            for k in sorted(self.bins):
                f.write("%d,%d\n" % (k, self.bins[k]))
        os.replace(tmp, self.path)


def stop_on_signals(flag):
    for s in (signal.SIGTERM, signal.SIGINT):
        signal.signal(s, lambda *_: flag.__setitem__(0, False))


def sink(a):
    bins = Bins(a.out)
    running = [True]
    stop_on_signals(running)
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((a.bind, a.port))
    srv.listen(4)
    conns = []
    while running[0]:
        try:
            ready, _, _ = select.select([srv] + conns, [], [], 0.2)
        except InterruptedError:
            continue
        for s in ready:
            if s is srv:
                c, _ = srv.accept()
                c.setblocking(False)
                conns.append(c)
                continue
            try:
                data = s.recv(1 << 20)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                conns.remove(s)
                s.close()
            else:
                bins.add(len(data))
    bins.write()


def meter(a):
    bins = Bins(a.out)
    running = [True]
    stop_on_signals(running)
    fd = sys.stdin.fileno()
    while running[0]:
        try:
            ready, _, _ = select.select([fd], [], [], 0.2)
        except InterruptedError:
            continue
        if not ready:
            continue
        data = os.read(fd, 1 << 20)
        if not data:
            break
        bins.add(len(data))
    bins.write()


def source(a):
    host, _, port = a.connect.rpartition(":")
    running = [True]
    stop_on_signals(running)
    wait = a.start_epoch_ms / 1000.0 - time.time()
    if wait > 0:
        time.sleep(wait)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if a.cc:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, a.cc.encode())
    # at most 64 KiB not yet sent in the kernel: when the source stops, the flow stops (what is already
    # in flight and queued still drains) instead of sending a multi-megabyte socket buffer for seconds
    s.setsockopt(socket.IPPROTO_TCP, getattr(socket, "TCP_NOTSENT_LOWAT", 25), 64 * 1024)
    s.connect((host, int(port)))
    print("source: connected at %d ms, congestion control %s" % (
        int(time.time() * 1000), s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).rstrip(b"\0").decode()),
        flush=True)
    chunk = os.urandom(1 << 16)
    stop = a.stop_epoch_ms / 1000.0
    sent = 0
    s.setblocking(False)
    while running[0]:
        left = stop - time.time()
        if left <= 0:
            break
        _, w, _ = select.select([], [s], [], min(left, 0.05))
        if w:
            try:
                sent += s.send(chunk)
            except BlockingIOError:
                pass
    s.close()
    print("source: stopped at %d ms after %d bytes handed to the kernel" % (int(time.time() * 1000), sent), flush=True)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    k = sub.add_parser("sink")
    k.add_argument("--bind", required=True)
    k.add_argument("--port", type=int, required=True)
    k.add_argument("--out", required=True)
    m = sub.add_parser("meter")
    m.add_argument("--out", required=True)
    s = sub.add_parser("source")
    s.add_argument("--connect", required=True, metavar="IP:PORT")
    s.add_argument("--start-epoch-ms", type=int, required=True)
    s.add_argument("--stop-epoch-ms", type=int, required=True)
    s.add_argument("--cc", default="cubic")
    a = p.parse_args(argv)
    {"sink": sink, "meter": meter, "source": source}[a.cmd](a)


if __name__ == "__main__":
    main(sys.argv[1:])
