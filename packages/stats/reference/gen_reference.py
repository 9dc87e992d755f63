#!/usr/bin/env python3
"""Reference values for @poolbench/stats tests, written to reference-values.json.

Run:  python3 -m venv /tmp/pb-stats-venv && /tmp/pb-stats-venv/bin/pip install scipy statsmodels
      /tmp/pb-stats-venv/bin/python packages/stats/reference/gen_reference.py
Needs Rscript (Debian r-base-core) on PATH for the Hodges-Lehmann reference (wilcox.test).

Sources of truth:
- Mann-Whitney U p-values: scipy.stats.mannwhitneyu (method='exact' / 'asymptotic',
  use_continuity=True), cross-checked against R's wilcox.test.
- Hodges-Lehmann estimate and interval: R's wilcox.test(conf.int=TRUE, correct=TRUE) on log
  values, plus an independent Python implementation of the Moses/Bauer order-statistic interval
  (below), which must agree with R exactly in the exact branch and within R's uniroot tolerance
  (1e-4) in the asymptotic branch.
- Wilson / Newcombe: statsmodels proportion_confint(method='wilson'),
  confint_proportions_2indep(method='newcomb'); BH: statsmodels multipletests('fdr_bh') and R
  p.adjust('BH'); quantiles: numpy.quantile(method='linear') and R quantile(type=7); MAD: R mad.
"""
import json
import math
import os
import platform
import subprocess
import tempfile
from itertools import product

import numpy as np
import scipy
import statsmodels
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261121)


def lognormal(n, mu, sigma, digits=None):
    v = np.exp(rng.normal(mu, sigma, n))
    if digits is not None:
        v = np.round(v, digits)
    return [float(a) for a in v]


# --- independent Moses/Bauer implementation --------------------------------------------------

def exact_counts(m, n):
    """Counts of U = 0..mn by the subset-sum DP over ranks (a different recursion than the TS code)."""
    N = m + n
    max_sum = sum(range(N - m + 1, N + 1))
    dp = [[0] * (max_sum + 1) for _ in range(m + 1)]  # Python ints: exact
    dp[0][0] = 1
    for t in range(1, N + 1):
        for k in range(min(t, m), 0, -1):
            row, prev = dp[k], dp[k - 1]
            for s in range(max_sum, t - 1, -1):
                if prev[s - t]:
                    row[s] += prev[s - t]
    base = m * (m + 1) // 2
    return [dp[m][u + base] for u in range(m * n + 1)]


def hl_interval(x, y, conf, method):
    m, n = len(x), len(y)
    d = sorted(a - b for a in x for b in y)
    mn = m * n
    est = float(np.median(d))
    alpha = 1 - conf
    if method == 'exact':
        counts = exact_counts(m, n)
        total = math.comb(m + n, m)
        assert sum(counts) == total
        cum, k = 0, None
        for u, c in enumerate(counts):
            cum += c
            if cum / total >= alpha / 2 - 10 * 2.220446049250313e-16:
                k = u
                break
        k = max(k, 1)
        achieved = 1 - 2 * sum(counts[:k]) / total
    else:
        def ties(v):
            _, c = np.unique(v, return_counts=True)
            return float(sum(t ** 3 - t for t in c))
        N = m + n
        sigma = math.sqrt(mn / 12 * ((N + 1) - (ties(x) + ties(y)) / (N * (N - 1))))
        z = stats.norm.ppf(1 - alpha / 2)
        k = max(1, math.floor(mn / 2 + 0.5 - z * sigma))
        achieved = 1 - 2 * stats.norm.cdf((k - 0.5 - mn / 2) / sigma)
    return {'estimate': est, 'lower': d[k - 1], 'upper': d[mn - k], 'k': k, 'achievedConfidence': achieved}


# --- R ----------------------------------------------------------------------------------------

def r_vec(v):
    return 'c(' + ','.join(repr(float(a)) for a in v) + ')'


def run_r(lines):
    with tempfile.NamedTemporaryFile('w', suffix='.R', delete=False) as f:
        f.write('\n'.join(lines))
        path = f.name
    try:
        proc = subprocess.run(['Rscript', '--vanilla', path], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr)
        out = proc.stdout
    finally:
        os.unlink(path)
    return [line for line in out.splitlines() if line.strip()]


def r_version():
    return run_r(['cat(R.version$major, ".", R.version$minor, "\\n", sep="")'])[0].strip()


# --- cases ------------------------------------------------------------------------------------

def mwu_cases():
    cases = []
    # Without ties: exact branch in auto (both < 50), and the asymptotic branch for comparison.
    for (m, n, shift) in [(3, 3, 0.5), (4, 4, 0.4), (4, 4, 0.0), (5, 7, 0.2), (6, 5, -0.3), (8, 8, 0.1),
                          (10, 12, 0.25), (15, 15, -0.05), (20, 25, 0.15), (30, 12, 0.0), (49, 49, 0.05)]:
        base = lognormal(m, 3.0, 0.15)
        cand = lognormal(n, 3.0 + shift, 0.15)
        cases.append({'name': f'no ties {m}x{n} shift {shift}', 'baseline': base, 'candidate': cand})
    # Ties (values rounded): asymptotic with tie correction.
    for (m, n, shift, digits) in [(5, 5, 0.1, 0), (10, 12, 0.2, 0), (30, 30, 0.05, 1), (6, 6, 0.0, 0)]:
        base = lognormal(m, 2.0, 0.2, digits)
        cand = lognormal(n, 2.0 + shift, 0.2, digits)
        cases.append({'name': f'ties {m}x{n} shift {shift}', 'baseline': base, 'candidate': cand})
    # Large samples without ties: asymptotic in auto.
    for (m, n, shift) in [(60, 55, 0.03), (80, 80, -0.08)]:
        cases.append({'name': f'large {m}x{n} shift {shift}', 'baseline': lognormal(m, 4.0, 0.1),
                      'candidate': lognormal(n, 4.0 + shift, 0.1)})
    # Within-sample ties only (each side constant): test has ties, interval variance does too.
    cases.append({'name': 'constant sides', 'baseline': [10.0] * 5, 'candidate': [12.0] * 6})
    return cases


def main():
    cases = mwu_cases()
    r_lines = []
    for i, c in enumerate(cases):
        x, y = r_vec(c['candidate']), r_vec(c['baseline'])
        for conf in (0.95, 0.9):
            r_lines.append(
                # R stops when the interval cannot be computed (all shifted values tied): record NA.
                f'w <- tryCatch(suppressWarnings(wilcox.test(log({x}), log({y}), conf.int=TRUE, conf.level={conf}, correct=TRUE)), error=function(e) NULL); '
                f'v <- if (is.null(w)) rep(NA, 6) else c(w$statistic, w$p.value, w$estimate, w$conf.int, '
                f'ifelse(is.null(attr(w$conf.int, "conf.level")), NA, attr(w$conf.int, "conf.level"))); '
                f'cat("{i}", {conf}, sprintf("%.17g", v), "\\n")')
    r_out = {}
    for line in run_r(r_lines):
        parts = line.split()
        r_out[(int(parts[0]), float(parts[1]))] = [math.nan if v == 'NA' else float(v) for v in parts[2:]]

    mw_out = []
    for i, c in enumerate(cases):
        x = [math.log(v) for v in c['candidate']]
        y = [math.log(v) for v in c['baseline']]
        has_ties = len(set(x + y)) < len(x + y)
        m, n = len(x), len(y)
        auto_method = 'exact' if (not has_ties and m < 50 and n < 50) else 'asymptotic'
        asym = stats.mannwhitneyu(x, y, alternative='two-sided', method='asymptotic', use_continuity=True)
        entry = {**c, 'hasTies': has_ties, 'autoMethod': auto_method,
                 'u': float(asym.statistic), 'asymptoticP': float(asym.pvalue)}
        if not has_ties:
            ex = stats.mannwhitneyu(x, y, alternative='two-sided', method='exact')
            entry['exactP'] = float(ex.pvalue)
            assert ex.statistic == asym.statistic
        entry['hl'] = {}
        for conf in (0.95, 0.9):
            stat, p, est, lo, hi, r_conf = r_out[(i, conf)]
            ours = hl_interval(x, y, conf, auto_method)
            if math.isnan(stat):  # R refused; only the Python reference exists
                entry['hl'][str(conf)] = {'r': None, 'python': ours}
                continue
            # R's W is the U of its first argument; its p-value must match SciPy's for the same branch.
            assert abs(stat - entry['u']) < 1e-9, (c['name'], stat, entry['u'])
            scipy_p = entry['exactP'] if auto_method == 'exact' else entry['asymptoticP']
            if not math.isnan(p):
                assert abs(p - scipy_p) <= 1e-12 + 1e-9 * scipy_p, (c['name'], p, scipy_p)
            if auto_method == 'exact':
                assert ours['lower'] == lo and ours['upper'] == hi and ours['estimate'] == est, (c['name'], ours, lo, hi, est)
                # R reports the achieved level only when it misses the request by more than alpha/2.
                if r_conf != conf:
                    assert abs(ours['achievedConfidence'] - r_conf) < 1e-12, (c['name'], conf, ours, r_conf)
                else:
                    assert ours['achievedConfidence'] >= conf - 1e-12
            else:
                assert abs(ours['lower'] - lo) < 2e-4 and abs(ours['upper'] - hi) < 2e-4, (c['name'], ours, lo, hi)
            entry['hl'][str(conf)] = {'r': {'estimate': est, 'lower': lo, 'upper': hi,
                                            'confLevel': None if math.isnan(r_conf) else r_conf, 'pValue': p},
                                      'python': ours}
        mw_out.append(entry)

    # Wilson and Newcombe (statsmodels).
    wilson = []
    for (k, n), conf in product([(0, 10), (0, 1000), (1, 10), (3, 50), (25, 50), (50, 50), (7, 12345), (999, 1000)],
                                (0.95, 0.9, 0.99)):
        lo, hi = proportion_confint(k, n, alpha=1 - conf, method='wilson')
        wilson.append({'k': k, 'n': n, 'confidence': conf, 'lower': float(lo), 'upper': float(hi)})
    newcombe = []
    for (k1, n1, k2, n2) in [(5, 100, 1, 100), (0, 500, 3, 400), (12, 40, 12, 40), (30, 30, 0, 25), (7, 1000, 2, 1200)]:
        res = confint_proportions_2indep(k1, n1, k2, n2, method='newcomb', compare='diff', alpha=0.05)
        newcombe.append({'k1': k1, 'n1': n1, 'k2': k2, 'n2': n2, 'lower': float(res[0]), 'upper': float(res[1])})

    # Benjamini-Hochberg (statsmodels, cross-checked with R p.adjust).
    bh_sets = [[0.01, 0.04, 0.03, 0.005, 0.2, 0.5, 0.04, 1.0],
               [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216, 0.222, 0.251, 0.269, 0.275,
                0.34, 0.341, 0.384, 0.569, 0.594, 0.696, 0.762, 0.94, 0.942, 0.975, 0.986],
               [0.3, 0.3, 0.3], [0.049]]
    r_bh = run_r([f'cat(sprintf("%.17g", p.adjust({r_vec(s)}, method="BH")), "\\n")' for s in bh_sets])
    bh = []
    for s, r_line in zip(bh_sets, r_bh):
        reject, corrected, _, _ = multipletests(s, alpha=0.05, method='fdr_bh')
        r_vals = [float(v) for v in r_line.split()]
        assert np.allclose(r_vals, corrected, rtol=0, atol=1e-15)
        bh.append({'p': s, 'q': 0.05, 'adjusted': [float(v) for v in corrected], 'reject': [bool(v) for v in reject]})

    # Quantiles (numpy linear == R type 7), IQR and MAD (R).
    samples = [[3.0, 1.0, 2.0], [1.0, 2.0, 3.0, 4.0], lognormal(11, 1.0, 0.5), [5.0, 5.0, 5.0, 7.0, 100.0],
               [42.0], lognormal(20, 0.0, 1.0)]
    probs = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1]
    r_desc = run_r([f'v <- {r_vec(s)}; cat(sprintf("%.17g", c(quantile(v, {r_vec(probs)}, type=7, names=FALSE), IQR(v), mad(v), mad(v, constant=1))), "\\n")'
                    for s in samples])
    desc = []
    for s, line in zip(samples, r_desc):
        vals = [float(v) for v in line.split()]
        q = [float(v) for v in np.quantile(s, probs, method='linear')]
        assert np.allclose(q, vals[:len(probs)], rtol=1e-15, atol=0)
        desc.append({'values': s, 'probs': probs, 'quantiles': q, 'iqr': vals[len(probs)],
                     'mad': vals[len(probs) + 1], 'madRaw': vals[len(probs) + 2]})

    normal = {'cdf': [{'x': x, 'p': float(stats.norm.cdf(x))} for x in
                      [-38, -30, -12.5, -8, -7.5, -7.0, -5, -3.3, -1.959963984540054, -1, -0.1, 0, 0.3, 1.5, 2.5, 6, 9]],
              'ppf': [{'p': p, 'x': float(stats.norm.ppf(p))} for p in
                      [1e-300, 1e-20, 1e-10, 1e-5, 0.001, 0.005, 0.025, 0.05, 0.1, 0.3, 0.5, 0.7, 0.95, 0.975, 0.995, 0.999999]]}

    out = {
        'generator': 'packages/stats/reference/gen_reference.py',
        'versions': {'python': platform.python_version(), 'numpy': np.__version__, 'scipy': scipy.__version__,
                     'statsmodels': statsmodels.__version__, 'R': r_version()},
        'mannWhitney': mw_out, 'wilson': wilson, 'newcombe': newcombe, 'bh': bh, 'descriptive': desc,
        'normal': normal,
    }
    with open(os.path.join(HERE, 'reference-values.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    print('wrote', len(mw_out), 'Mann-Whitney cases;', out['versions'])


if __name__ == '__main__':
    main()
