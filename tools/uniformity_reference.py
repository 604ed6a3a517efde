#!/usr/bin/env python3
"""Reference values for the PP test's statistics (crates/tdpe/src/campaign/uniformity.rs
tests), from scipy, which bilby's `make_pp_plot` uses: the Kolmogorov-Smirnov p-value of
`kstest(x, "uniform")`, Fisher's `combine_pvalues` and `binom.ppf`.

Dev-only: `python3 -m venv v && v/bin/pip install scipy && v/bin/python
tools/uniformity_reference.py` prints the Rust arrays of the tests.

The sets are x_i = ((i + 1/2)/n)^a: uniform at a = 1, ever less so away from it.
"""
import scipy
from scipy import stats

CASES = [(1, 1.7), (5, 0.6), (10, 1.3), (37, 0.8), (100, 1.1), (100, 1.25), (100, 0.5),
         (250, 1.05), (500, 0.9)]
print(f"// scipy {scipy.__version__}")
print("ks: [")
for n, a in CASES:
    x = [((i + 0.5) / n) ** a for i in range(n)]
    r = stats.kstest(x, "uniform")
    print(f"    ({n}, {a!r}, {float(r.statistic)!r}, {float(r.pvalue)!r}),")
print("]")
SETS = [[0.5], [0.01, 0.2, 0.7], [0.3] * 10, [1e-5, 0.9, 0.04, 0.6, 0.33]]
print("fisher: [")
for ps in SETS:
    print(f"    ({ps!r}, {float(stats.combine_pvalues(ps).pvalue)!r}),")
print("]")
print("binomial: [")
for q, n, p in [(0.16, 100, 0.3), (0.84, 100, 0.3), (0.025, 100, 0.01), (0.0015, 100, 0.5),
                (0.9985, 100, 0.999), (0.5, 7, 0.5), (0.975, 250, 0.77)]:
    print(f"    ({q!r}, {n}, {p!r}, {int(stats.binom.ppf(q, n, p))}),")
print("]")
