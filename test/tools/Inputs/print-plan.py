#!/usr/bin/env python3
"""Prints a bundle's launch plan as lit tests check it: per step its entry,
launch shape and arguments, then the TMA tensor maps (docs/bundle-format.md,
format version 4).

    print-plan.py model.bin
"""
import struct
import sys

PLAN = 3
KINDS = {1: "input", 2: "output", 3: "weight", 4: "arena", 5: "tensor-map"}
DTYPES = {1: "f32", 10: "f16", 16: "bf16"}


def main():
    data = open(sys.argv[1], "rb").read()
    table, count = struct.unpack_from("<QI", data, 24)
    sections = [struct.unpack_from("<IIQQII", data, table + 32 * i)
                for i in range(count)]
    plan = next(s for s in sections if s[0] == PLAN)[2]
    arena, _, steps, args, maps = struct.unpack_from("<QIIII", data, plan)
    at = plan + 32
    step_records = []
    for _ in range(steps):
        fields = struct.unpack_from("<4I3I3III", data, at)
        step_records.append(fields)
        at += 72
    refs = []
    for _ in range(args):
        refs.append(struct.unpack_from("<IIQ", data, at))
        at += 16
    for i, step in enumerate(step_records):
        first, count = step[2], step[3]
        names = []
        for kind, index, offset in refs[first:first + count]:
            name = "%s %d" % (KINDS.get(kind, kind), index)
            names.append(name + (" +%d" % offset if offset else ""))
        print("step %d grid %s block %s shared %d args: %s" % (
            i, "x".join(map(str, step[4:7])), "x".join(map(str, step[7:10])),
            step[10], ", ".join(names)))
    for i in range(maps):
        fields = struct.unpack_from("<IIQQII5Q4Q5II", data, at)
        kind, index, offset, byte_offset, dtype, rank = fields[:6]
        dims = fields[6:6 + rank]
        strides = fields[11:11 + rank - 1]
        box = fields[15:15 + rank]
        swizzle = fields[20]
        buffer = "%s %d" % (KINDS.get(kind, kind), index)
        if offset:
            buffer += " +%d" % offset
        print("tensor map %d: %s +%d %s dims %s strides %s box %s swizzle %d" % (
            i, buffer, byte_offset, DTYPES.get(dtype, dtype),
            "x".join(map(str, dims)), "x".join(map(str, strides)),
            "x".join(map(str, box)), swizzle))
        at += 128


if __name__ == "__main__":
    main()
