#!/usr/bin/env python3
"""tflite_lifetimes.py MODEL.tflite - the lifetime of every tensor of subgraph 0,
read from the .tflite flatbuffer itself (independent of aotc): prints JSON
{"nops": N, "tensors": {index: [first, last]}} where first/last are operator
positions in the model's order; graph inputs start at 0, graph outputs and
variable tensors live to the end (N - 1). Only the few flatbuffer fields
needed are read (Model.subgraphs, SubGraph.tensors/inputs/outputs/operators,
Tensor.is_variable, Operator.inputs/outputs)."""
import json
import struct
import sys

buf = open(sys.argv[1], "rb").read()


def u32(p):
    return struct.unpack_from("<I", buf, p)[0]


def field(tab, i):
    """Position of field i of the table at tab, or None."""
    vt = tab - struct.unpack_from("<i", buf, tab)[0]
    vsize = struct.unpack_from("<H", buf, vt)[0]
    if 4 + 2 * i >= vsize:
        return None
    off = struct.unpack_from("<H", buf, vt + 4 + 2 * i)[0]
    return tab + off if off else None


def vector(tab, i):
    p = field(tab, i)
    if p is None:
        return None, 0
    v = p + u32(p)
    return v + 4, u32(v)


def tables(tab, i):
    v, n = vector(tab, i)
    return [v + 4 * k + u32(v + 4 * k) for k in range(n)]


def ints(tab, i):
    v, n = vector(tab, i)
    return list(struct.unpack_from("<%di" % n, buf, v)) if n else []


model = u32(0)
sg = tables(model, 2)[0]
tensors = tables(sg, 0)
ops = tables(sg, 3)
nops = len(ops)
life = {}
for p, op in enumerate(ops):
    for t in ints(op, 1) + ints(op, 2):
        if t < 0:
            continue
        a, b = life.get(t, (p, p))
        life[t] = (min(a, p), max(b, p))
for t in ints(sg, 1):
    life[t] = (0, life.get(t, (0, 0))[1])
for t in ints(sg, 2):
    life[t] = (life.get(t, (0, 0))[0], nops - 1)
for t, tab in enumerate(tensors):
    p = field(tab, 5)  # Tensor.is_variable
    if p is not None and buf[p]:
        life[t] = (0, nops - 1)
print(json.dumps({"nops": nops, "tensors": {str(k): v for k, v in sorted(life.items())}}))
