"""Unit tests of the delay line's scheduling core (run by `mvn verify` through the parent POM)."""
import unittest

from schedule import Direction


class DirectionTest(unittest.TestCase):

    def test_packet_leaves_exactly_after_the_delay(self):
        d = Direction(0.061)
        self.assertTrue(d.arrive(b"a", 10.0))
        self.assertEqual([], d.due(10.0609))
        self.assertEqual([b"a"], d.due(10.061))
        self.assertEqual(0, len(d))

    def test_without_jitter_packets_leave_in_arrival_order_even_at_the_same_instant(self):
        d = Direction(0.05)
        for i in range(100):
            d.arrive(bytes([i]), 1.0 + (i // 10) * 0.001)  # ten packets per millisecond
        self.assertEqual([bytes([i]) for i in range(100)], d.due(2.0))

    def test_fifo_jitter_varies_the_delay_but_never_reorders(self):
        d = Direction(0.05, jitter_s=0.005, seed=3, fifo=True)
        for i in range(1000):
            d.arrive(i, 1.0 + i * 0.0006)   # a packet every 0.6 ms, as at 20 Mbit/s
        out, t = [], 1.0
        delays = []
        while len(d):
            t = d.next_due()
            for p in d.due(t):
                out.append(p)
                delays.append(t - (1.0 + p * 0.0006))
        self.assertEqual(list(range(1000)), out)
        self.assertGreaterEqual(min(delays), 0.045 - 1e-9)
        self.assertGreater(max(delays) - min(delays), 0.005, "the delay still varies")

    def test_jitter_without_fifo_reorders_close_packets(self):
        d = Direction(0.05, jitter_s=0.005, seed=3)
        for i in range(1000):
            d.arrive(i, 1.0 + i * 0.0006)
        self.assertNotEqual(list(range(1000)), d.due(10.0))

    def test_next_due_is_the_earliest_waiting_packet(self):
        d = Direction(0.1)
        self.assertIsNone(d.next_due())
        d.arrive(b"x", 5.0)
        d.arrive(b"y", 5.02)
        self.assertAlmostEqual(5.1, d.next_due())
        d.due(5.1)
        self.assertAlmostEqual(5.12, d.next_due())

    def test_jitter_stays_within_bounds_and_never_before_arrival(self):
        d = Direction(0.001, jitter_s=0.005, seed=7)
        for i in range(1000):
            d.arrive(i, 0.0)
        dues = sorted(due for due, _, _ in d._heap)
        self.assertGreaterEqual(dues[0], 0.0)
        self.assertLessEqual(dues[-1], 0.006 + 1e-12)
        self.assertGreater(len(set(dues)), 500, "jitter spreads the due times")

    def test_loss_drops_about_the_configured_share_deterministically(self):
        a = Direction(0.0, loss=0.02, seed=3)
        b = Direction(0.0, loss=0.02, seed=3)
        kept_a = [a.arrive(i, 0.0) for i in range(50_000)]
        kept_b = [b.arrive(i, 0.0) for i in range(50_000)]
        self.assertEqual(kept_a, kept_b, "same seed, same losses")
        self.assertTrue(800 < a.dropped_loss < 1200, a.dropped_loss)

    def test_full_queue_drops_the_arriving_packet(self):
        d = Direction(1.0, limit=3)
        self.assertEqual([True, True, True, False], [d.arrive(i, 0.0) for i in range(4)])
        self.assertEqual(1, d.dropped_full)
        self.assertEqual([0, 1, 2], d.due(1.0))

    def test_bad_settings_are_refused_naming_the_value(self):
        with self.assertRaisesRegex(ValueError, "-1"):
            Direction(-1)
        with self.assertRaisesRegex(ValueError, "1.5"):
            Direction(0.1, loss=1.5)
        with self.assertRaisesRegex(ValueError, "limit"):
            Direction(0.1, limit=0)


if __name__ == "__main__":
    unittest.main()
