#!/usr/bin/env python3
"""csv2npz.py OUT.npz key=file.csv:dtype ... - pack CSV vectors into an .npz
(1-D arrays; dtype int8|int16|int32|float32) for `aotc verify`. Test glue
only: uses the standard library (no numpy)."""
import struct
import sys
import zipfile

CODES = {"int8": ("|i1", "b"), "int16": ("<i2", "h"), "int32": ("<i4", "i"), "float32": ("<f4", "f")}


def npy(values, dtype):
    descr, fmt = CODES[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(values))
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    conv = float if dtype == "float32" else int
    body = struct.pack("<%d%s" % (len(values), fmt), *[conv(v) for v in values])
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + body


def main():
    out = sys.argv[1]
    with zipfile.ZipFile(out, "w") as z:
        for spec in sys.argv[2:]:
            key, rest = spec.split("=", 1)
            path, dtype = rest.rsplit(":", 1)
            text = open(path).read().replace("\n", ",")
            values = [v for v in text.split(",") if v.strip()]
            z.writestr(key + ".npy", npy(values, dtype))


main()
