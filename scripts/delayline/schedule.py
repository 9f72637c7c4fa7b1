"""Scheduling core of the userspace delay line (pure: no I/O, time passed in).

Each direction holds packets for a one-way delay, plus optional jitter (uniform in
[-jitter, +jitter], never below zero) and random loss, from a seeded random source. Packets leave
in order of their due time; with jitter 0 that is arrival order (a FIFO), and ties keep arrival
order. With fifo=True jitter never reorders: a packet is due no earlier than the packet that
arrived before it (a path whose delay varies, not one that reorders). A bounded queue models a router buffer: a packet that finds it full is dropped (tail drop).
"""
import heapq
import random


class Direction:
    """Packets of one direction waiting for their due time. Times are in seconds (floats)."""

    def __init__(self, delay_s, jitter_s=0.0, loss=0.0, limit=100_000, seed=1, fifo=False):
        if delay_s < 0 or jitter_s < 0:
            raise ValueError(f"delay and jitter must be >= 0, were {delay_s} and {jitter_s}")
        if not 0.0 <= loss < 1.0:
            raise ValueError(f"loss must be in [0, 1), was {loss}")
        if limit < 1:
            raise ValueError(f"limit must be >= 1, was {limit}")
        self.delay_s = delay_s
        self.jitter_s = jitter_s
        self.loss = loss
        self.limit = limit
        self._random = random.Random(seed)
        self._heap = []
        self.fifo = fifo
        self._last_due = float("-inf")
        self._arrivals = 0
        self.dropped_loss = 0
        self.dropped_full = 0

    def arrive(self, packet, now):
        """Takes a packet that arrived at time now; returns False when it was dropped."""
        if self.loss > 0 and self._random.random() < self.loss:
            self.dropped_loss += 1
            return False
        if len(self._heap) >= self.limit:
            self.dropped_full += 1
            return False
        due = now + self.delay_s
        if self.jitter_s > 0:
            due = max(now, due + self._random.uniform(-self.jitter_s, self.jitter_s))
            if self.fifo:
                due = max(due, self._last_due)
                self._last_due = due
        heapq.heappush(self._heap, (due, self._arrivals, packet))
        self._arrivals += 1
        return True

    def due(self, now):
        """Removes and returns, in order, every packet whose time has come."""
        out = []
        while self._heap and self._heap[0][0] <= now:
            out.append(heapq.heappop(self._heap)[2])
        return out

    def next_due(self):
        """When the next packet is due, or None when nothing waits."""
        return self._heap[0][0] if self._heap else None

    def __len__(self):
        return len(self._heap)
