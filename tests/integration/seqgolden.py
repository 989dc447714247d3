#!/usr/bin/env python3
"""seqgolden.py GOLDEN.npz OUT.npz PLAN - builds a sequence golden from a
stateful golden (input_N, output_N = run 1, runK_output_N = run K+1 with the
same input and state carried). PLAN lists, per step, which run's output is
expected there, e.g. "0,1,2,0,1" (a reset before step 3 restarts at run 0).
Inputs are the same stimulus stacked on a leading steps axis. Standard library
only (test glue)."""
import ast
import struct
import sys
import zipfile


def parse(blob):
    assert blob[:6] == b"\x93NUMPY"
    major = blob[6]
    if major == 1:
        hlen = struct.unpack("<H", blob[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", blob[8:12])[0]
        start = 12
    header = ast.literal_eval(blob[start:start + hlen].decode("latin1"))
    return header, blob[start + hlen:]


def make(descr, shape, data):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    h = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    h += " " * (64 - (10 + len(h) + 1) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + data


def main():
    src, out, plan = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split(",")]
    z = zipfile.ZipFile(src)
    arrs = {n[:-4]: parse(z.read(n)) for n in z.namelist() if n.endswith(".npy")}
    with zipfile.ZipFile(out, "w") as w:
        for k, (h, d) in sorted(arrs.items()):
            if k.startswith("input_"):
                w.writestr(k + ".npy", make(h["descr"], (len(plan),) + tuple(h["shape"]), d * len(plan)))
        outs = sorted(k for k in arrs if k.startswith("output_"))
        for k in outs:
            parts = []
            for run in plan:
                key = k if run == 0 else "run%d_%s" % (run, k)
                parts.append(arrs[key][1])
            h = arrs[k][0]
            w.writestr(k + ".npy", make(h["descr"], (len(plan),) + tuple(h["shape"]), b"".join(parts)))


main()
