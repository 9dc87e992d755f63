"""The hooks' own rules: what they hand Schemathesis must still match the document."""
import unittest

import schemathesis_hooks as hooks

WINDOW_MAX = 7200  # the document's maximum for `from` and `to` (a run's longest duration)


class OrderWindow(unittest.TestCase):
    def ordered(self, f, t):
        q = {"from": f, "to": t}
        hooks.map_query(None, q)
        return q["from"], q["to"]

    def test_every_pair_in_bounds_comes_out_ordered_and_in_bounds(self):
        for f in (0, 1, 141, WINDOW_MAX - 1, WINDOW_MAX):
            for t in (0, 1, 141, WINDOW_MAX - 1, WINDOW_MAX):
                lo, hi = self.ordered(f, t)
                self.assertTrue(0 <= lo < hi <= WINDOW_MAX, (f, t, lo, hi))

    def test_an_ordered_window_is_left_alone(self):
        self.assertEqual(self.ordered(3, 9), (3, 9))

    def test_other_values_are_left_for_the_negative_tests(self):
        for q in ({"from": "x", "to": 1}, {"from": True, "to": 0}, {"to": 5}, {}):
            before = dict(q)
            hooks.map_query(None, q)
            self.assertEqual(q, before)


class OrderAdvisorRange(unittest.TestCase):
    def test_range_comes_out_increasing(self):
        for lo, hi in ((5, 5), (1, 1), (9, 3), (1000, 1000)):
            body = {"knob": "poolMax", "min": lo, "max": hi}
            hooks.map_body(None, body)
            self.assertLess(body["min"], body["max"], (lo, hi))
            self.assertGreaterEqual(body["min"], 1)


if __name__ == "__main__":
    unittest.main()
