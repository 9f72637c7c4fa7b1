#!/usr/bin/env python3
"""Userspace delay line for a router namespace without netem.

usage: delayline.py --tun NAME:DELAY_MS [--tun NAME:DELAY_MS ...] [--jitter-ms J] [--loss-pct P]
                    [--limit PACKETS] [--seed S] [--jitter-fifo]

Attaches to each (already created) TUN device, reads every packet the kernel routes into it,
holds it for that device's one-way delay (scheduling in schedule.Direction) and writes it back
into the same device, where the kernel routes it on (policy routing by incoming interface sends it
to the real next hop). Stdlib only; one thread, a select() loop that sleeps until the next packet is due.
"""
import argparse
import fcntl
import os
import select
import signal
import struct
import sys
import time

from schedule import Direction

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000


def open_tun(name):
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tun", action="append", required=True, metavar="NAME:DELAY_MS")
    p.add_argument("--jitter-ms", type=float, default=0.0)
    p.add_argument("--loss-pct", type=float, default=0.0)
    p.add_argument("--limit", type=int, default=100_000, help="packets held per direction at most")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jitter-fifo", action="store_true", help="jitter never reorders a direction's packets")
    a = p.parse_args(argv)
    fds = {}
    for i, spec in enumerate(a.tun):
        name, _, ms = spec.partition(":")
        try:
            delay = float(ms) / 1000.0
        except ValueError:
            p.error(f"--tun needs NAME:DELAY_MS, got '{spec}'")
        fd = open_tun(name)
        fds[fd] = Direction(delay, a.jitter_ms / 1000.0, a.loss_pct / 100.0, a.limit, a.seed + i, a.jitter_fifo)
    tun_fds = list(fds)
    running = [True]
    signal.signal(signal.SIGTERM, lambda *_: running.__setitem__(0, False))
    signal.signal(signal.SIGINT, lambda *_: running.__setitem__(0, False))
    print("delayline: " + ", ".join(a.tun) + f" ms, jitter {a.jitter_ms} ms" + (" (fifo)" if a.jitter_fifo else "") + f", loss {a.loss_pct} %", flush=True)
    while running[0]:
        now = time.monotonic()
        for fd, d in fds.items():
            for pkt in d.due(now):
                try:
                    os.write(fd, pkt)
                except OSError:
                    pass  # e.g. the device went away at shutdown
        waits = [t for t in (d.next_due() for d in fds.values()) if t is not None]
        # select() sleeps to the microsecond (poll() rounds to whole milliseconds, and waking a
        # millisecond early to spin until the packet is due kept a core busy at real-time priority
        # whenever packets were due less than 2 ms apart, that is at any rate above ~1 Mbit/s)
        timeout = 0.1 if not waits else max(0.0, min(waits) - time.monotonic())
        readable, _, _ = select.select(tun_fds, [], [], timeout)
        for fd in readable:
            now = time.monotonic()
            while True:
                try:
                    pkt = os.read(fd, 65536)
                except BlockingIOError:
                    break
                fds[fd].arrive(pkt, now)
    for fd, d in fds.items():
        print(f"delayline: fd {fd}: dropped {d.dropped_loss} (loss) {d.dropped_full} (full), {len(d)} left", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
