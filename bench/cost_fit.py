#!/usr/bin/env python3
"""bench/cost_fit.py OUTDIR - refits the coefficients of src/ops/cost_dsp.c
from the counts bench/cost_calib.sh OUTDIR left (OUTDIR/cases.txt and
OUTDIR/counts.txt): per kernel path a least-squares fit of the counted
instructions on the same terms cost_dsp.c sums, each call weighted by the
inverse square root of its count, so large and small layers both count.
Prints each path's coefficients in hundredths (paste them into cost_dsp.c),
its mean and largest error, and the instructions the estimate loses against
always picking the faster path. Plain Python 3, no packages."""
import sys


def cdiv(a, b):
    return (a + b - 1) // b


def dw3_cost(rows, cols):   # aot_dwconv2d_s8_dsp_cost
    return rows * (70 * (cols // 4) + 40 * ((cols % 4) // 2) + 31 * (cols % 2) + 15)


def terms(r):
    """the terms of cost_dsp_conv_s8 for one case, in its order"""
    dw, ih, iw, ic, oh, ow, oc, fh, fw, s, pad, v = r[:12]
    P = oh * ow
    K = fh * fw * (1 if dw else ic)
    ng = cdiv(K, 4)
    if not dw and v == 0:
        return [cdiv(P, 6) * oc * ng, P * ng, cdiv(P, 6) * oc, P, oc * ng, oc, 1, P * K, P * oc]
    if not dw:
        nb = cdiv(oc, 64)
        return [cdiv(P, 4) * oc * ng, cdiv(P, 4) * ng * nb, cdiv(P, 4) * oc, P * nb, oc * ng, oc,
                1, P * K * nb, P * oc]
    if v == 0:
        tr = s in (1, 2) and dw3_cost(ow, oh) < dw3_cost(oh, ow)
        rows, cols = (ow, oh) if tr else (oh, ow)
        return [oc * rows * (cols // 4), oc * rows * (cols % 4 // 2), oc * rows * (cols % 2),
                oc * rows, oc, 1, ih * iw * oc]
    return [oc * P, cdiv(oc, 32) * P, oc * oh, oc, 1, ih * iw * oc, cdiv(oc, 32)]


def lstsq(A, b):
    """normal equations, Gauss-Jordan with partial pivoting"""
    n = len(A[0])
    M = [[sum(a[i] * a[j] for a in A) for j in range(n)] + [sum(a[i] * y for a, y in zip(A, b))]
         for i in range(n)]
    for i in range(n):
        piv = max(range(i, n), key=lambda k: abs(M[k][i]))
        M[i], M[piv] = M[piv], M[i]
        for k in range(n):
            if k != i and M[i][i] != 0:
                f = M[k][i] / M[i][i]
                M[k] = [x - f * y for x, y in zip(M[k], M[i])]
    return [M[i][n] / M[i][i] for i in range(n)]


def main():
    d = sys.argv[1]
    cases = [list(map(int, l.split())) for l in open(d + "/cases.txt")]
    counts = [int(l) for l in open(d + "/counts.txt")]
    rows = [c + [n] for c, n in zip(cases, counts)]
    coef = {}
    names = {(0, 0): "CONV_2D gathered windows", (0, 1): "CONV_2D four-position",
             (1, 0): "DEPTHWISE 3x3 path", (1, 1): "DEPTHWISE tap-pair loop"}
    for key in sorted(names):
        R = [r for r in rows if (r[0], r[11]) == key]
        if not R:
            continue
        A = [[t / r[12] ** 0.5 for t in terms(r)] for r in R]
        b = [r[12] ** 0.5 for r in R]
        c = lstsq(A, b)
        coef[key] = c
        err = [abs(sum(x * t for x, t in zip(c, terms(r))) - r[12]) / r[12] for r in R]
        print("%s (%d calls): {%s}  mean error %.1f%%, largest %.1f%%" % (
            names[key], len(R), ", ".join(str(round(x * 100)) for x in c),
            100 * sum(err) / len(err), 100 * max(err)))
    est = lambda r: sum(x * t for x, t in zip(coef[(r[0], r[11])], terms(r)))
    for dw in (0, 1):
        R = [r for r in rows if r[0] == dw]
        lost = best = 0
        for a, b in zip(R[::2], R[1::2]):
            pick = b if est(b) < est(a) else a
            lost += pick[12] - min(a[12], b[12])
            best += a[12] - min(a[12], b[12])
        print("%s: the faster path saves %d instructions over the grid; the estimates lose %d of them"
              % ("DEPTHWISE" if dw else "CONV_2D", best, lost))


main()
