#!/usr/bin/env python3
"""residency_overlap.py RESIDENCY.json LIFETIMES.json - checks a module's
residency report (helia-aot schema 3) against tensor lifetimes read from the
model (tflite_lifetimes.py): in each arena region (role, memory), two tensors
whose lifetimes overlap do not share bytes, except an in-place hand-off (one
dies at the operator where the other is born, at the same offset and size) or
an alias (the same bytes and lifetime, e.g. a RESHAPE); an operator's scratch (<op>_<index>_scratch, live at that
operator only) shares bytes with no tensor alive there. Every slot lies
inside its region. Prints the counts; exits non-zero on a violation."""
import json
import re
import sys

d = json.load(open(sys.argv[1]))
life = json.load(open(sys.argv[2]))["tensors"]
assert d["schema_version"] == 3
size = {}
for role, arenas in d["arenas"].items():
    for a in arenas:
        size[(role, a["memory"])] = a["total_size"]
rows, skipped = [], 0
for t in d["tensors"]:
    if t["role"] == "constant":
        continue
    region = (t["role"], t["memory"])
    assert region in size and t["offset"] + t["size"] <= size[region], ("outside its region", t)
    m = re.match(r"^.*_(\d+)_scratch$", t["id"])
    if t["id"] in life:
        rows.append((life[t["id"]][0], life[t["id"]][1], t["offset"], t["size"], t["id"], False, region))
    elif m:
        p = int(m.group(1))
        rows.append((p, p, t["offset"], t["size"], t["id"], True, region))
    else:
        skipped += 1  # a tensor aotc made: no lifetime in the model
checked = 0
for i, a in enumerate(rows):
    for b in rows[i + 1:]:
        if a[6] != b[6]:
            continue
        checked += 1
        live = a[0] <= b[1] and b[0] <= a[1]
        overlap = a[2] < b[2] + b[3] and b[2] < a[2] + a[3]
        if not (live and overlap):
            continue
        op_scratch = a[5] or b[5]
        # the same bytes: an in-place hand-off (one dies at the operator that
        # writes the other) or an alias (RESHAPE)
        handoff = (a[1] == b[0] or b[1] == a[0]) and (a[2], a[3]) == (b[2], b[3])
        alias = (a[0], a[1], a[2], a[3]) == (b[0], b[1], b[2], b[3])
        if op_scratch or not (handoff or alias):
            sys.exit("overlap in region %s: %s %s" % (a[6], a[:5], b[:5]))
print("%d slots (%d without a model lifetime), %d pairs in the same region checked" % (len(rows), skipped, checked))
