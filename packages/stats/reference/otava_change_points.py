"""Change points of each series on stdin by Apache Otava, for the comparison test.

Reads a JSON list of series (lists of numbers), prints a JSON list with, per series, the indexes
of Otava's change points (its defaults: window 50, max p-value 0.001, min magnitude 0) and the
p-value of each. Run with the virtual environment setup.sh makes: .data/otava/bin/python.
"""
import json
import sys

from otava.analysis import compute_change_points


def main() -> None:
    series = json.load(sys.stdin)
    out = []
    for values in series:
        points, _ = compute_change_points(list(map(float, values)))
        out.append([{"index": int(p.index), "pValue": float(p.stats.pvalue)} for p in points])
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
