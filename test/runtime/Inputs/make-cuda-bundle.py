#!/usr/bin/python3
"""Writes a small CUDA bundle by hand, for the runtime's tests.

    make-cuda-bundle.py DIR [--cubin ARCH[=FILE]] ... [--ptx ARCH[=FILE]]
                        [--min-driver N] [--fault] [--repeat N]
                        [--shared BYTES] [--tensor-map]

The model is y = (x + w) * w for float32 vectors of 1024 elements: x an
input, w a weight, two launch steps of 4 blocks of 256 threads,

    add_f32(x, w, t)    t in the arena        source "Add_0"
    mul_f32(t, w, y)                          source "Mul_1"

with --fault the second step is fault() instead (a kernel that faults).
With --tensor-map, t lies 256 bytes into the arena and the second step is

    mul_tma_f32(m, w, y)                      m a TMA tensor map of t

m the plan's one tensor map: t as 32 x 32 float32 (rows of 128 bytes), boxes
of 32 x 8, 128-byte swizzle, its buffer the arena at offset 128 and its byte
offset 128, so that the map's address is right only if both are added.
--repeat N launches the first step N times (the same result, more launches);
--shared gives it BYTES of dynamic shared memory, which it does not use.
--cubin ARCH=FILE adds a cubin from FILE; --cubin ARCH alone adds a stand-in
(an ELF header with e_machine EM_CUDA and nothing else) for the fake driver
of test/runtime/FakeCudaDriver.cpp. --ptx adds PTX text from FILE, or a
stand-in. The real kernels are cuda-kernels.ptx, beside this script, and
cuda-tma-kernels.ptx (sm_90 and newer) with --tensor-map. Writes

DIR/cuda.bin                 the bundle (format version 4)
DIR/x.npy, DIR/expected/output_0.npy   an input and the expected output

Standard library only; the layout is docs/bundle-format.md's.
"""
import argparse
import hashlib
import os
import struct

N, BLOCKS, THREADS = 1024, 4, 256
CPU, CUDA = 1, 2
CUBIN, PTX = 2, 3
INPUT, OUTPUT, WEIGHT, ARENA, TENSOR_MAP = 1, 2, 3, 4, 5
FLOAT32 = 1


def align(value, alignment):
    return (value + alignment - 1) // alignment * alignment


class Strings:
    def __init__(self):
        self.data = bytearray(b"\0")
        self.offsets = {"": 0}

    def add(self, text):
        if text not in self.offsets:
            self.offsets[text] = len(self.data)
            self.data += text.encode() + b"\0"
        return self.offsets[text]


def fake_cubin():
    """An ELF64 little-endian header with e_machine EM_CUDA (190)."""
    header = bytearray(64)
    header[0:4] = b"\x7fELF"
    header[4], header[5], header[6] = 2, 1, 1
    struct.pack_into("<HH", header, 16, 2, 190)
    return bytes(header)


def write_bundle(path, steps, code, shared, arena, maps):
    strings = Strings()
    dims = [N, N, N]
    tensors = [("x", 1, 0), ("y", 2, 1), ("w", 3, 2)]
    manifest = struct.pack("<IIIIIIII", strings.add("cuda-test-model"), 3, 1, 1, 1,
                           len(dims), 0, 0)
    for name, role, first in tensors:
        manifest += struct.pack("<IIIIIIQQQ", strings.add(name), role, FLOAT32,
                                1, first, 0, 4 * N, 0, 0)
    manifest += struct.pack("<%dq" % len(dims), *dims)

    args = []
    records = b""
    for i, (entry, refs, source) in enumerate(steps):
        # Each step reads two vectors and writes one, and does one flop
        # per element.
        records += struct.pack("<4I3I3IIIQQII", CUDA, strings.add(entry),
                               len(args), len(refs), BLOCKS, 1, 1, THREADS, 1,
                               1, shared if i == 0 else 0, strings.add(source),
                               3 * 4 * N, N, 0, 0)
        args += refs
    plan = struct.pack("<QIIII2I", arena, 256, len(steps), len(args),
                       len(maps), 0, 0)
    plan += records
    for kind, index, offset in args:
        plan += struct.pack("<IIQ", kind, index, offset)
    for (kind, index, offset), byte_offset, rank, dims, strides, box, \
            swizzle in maps:
        def pad(values, count):
            return list(values) + [0] * (count - len(values))
        plan += struct.pack("<IIQQII5Q4Q5II", kind, index, offset, byte_offset,
                            FLOAT32, rank, *pad(dims, 5), *pad(strides, 4),
                            *pad(box, 5), swizzle)

    code_sections = []
    for fmt, arch, image, min_driver in code:
        header = struct.pack("<IIIIQQQ3Q", CUDA, fmt, strings.add(arch),
                             min_driver, 0, 64, len(image), 0, 0, 0)
        code_sections.append(header + image)

    weight = struct.pack("<%df" % N, *[0.5 + (i % 7) * 0.25 for i in range(N)])
    sections = [(1, bytes(strings.data), 64), (2, manifest, 64), (3, plan, 64)]
    sections += [(4, c, 64) for c in code_sections]
    sections.append((5, weight, 4096))

    table = 128
    offset = table + 32 * len(sections)
    layout = []
    for kind, data, alignment in sections:
        offset = align(offset, alignment)
        layout.append((kind, offset, data, alignment))
        offset += len(data)
    out = bytearray(offset)
    header = struct.pack("<8sIIQQII32s32s24s", b"AICCBNDL", 4, 128, offset,
                         table, len(sections), 0, b"make-cuda-bundle.py",
                         bytes(32), bytes(24))
    out[0:128] = header
    for i, (kind, at, data, alignment) in enumerate(layout):
        struct.pack_into("<IIQQII", out, table + 32 * i, kind, 0, at,
                         len(data), alignment, 0)
        out[at:at + len(data)] = data
    out[72:104] = hashlib.sha256(bytes(out)).digest()
    with open(path, "wb") as f:
        f.write(out)
    return weight


def write_npy(path, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(
        values)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--cubin", action="append", default=[])
    parser.add_argument("--ptx", action="append", default=[])
    parser.add_argument("--min-driver", type=int, default=0)
    parser.add_argument("--fault", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--shared", type=int, default=0)
    parser.add_argument("--tensor-map", action="store_true")
    options = parser.parse_args()

    code = []
    for spec in options.cubin:
        arch, _, file = spec.partition("=")
        image = open(file, "rb").read() if file else fake_cubin()
        code.append((CUBIN, arch, image, 0))
    for spec in options.ptx:
        arch, _, file = spec.partition("=")
        text = open(file, "rb").read() if file else b"// fake PTX\n"
        code.append((PTX, arch, text + b"\0", options.min_driver))

    t, arena, maps = (ARENA, 0, 0), 4 * N, []
    second = ("mul_f32", [t, (WEIGHT, 0, 0), (OUTPUT, 0, 0)], "Mul_1")
    if options.tensor_map:
        t, arena = (ARENA, 0, 256), 4 * N + 256
        maps = [((ARENA, 0, 128), 128, 2, [32, 32], [128], [32, 8], 128)]
        second = ("mul_tma_f32", [(TENSOR_MAP, 0, 0), (WEIGHT, 0, 0),
                                  (OUTPUT, 0, 0)], "Mul_1")
    if options.fault:
        second = ("fault", [], "Mul_1")
    steps = [("add_f32", [(INPUT, 0, 0), (WEIGHT, 0, 0), t],
              "Add_0")] * options.repeat + [second]
    os.makedirs(os.path.join(options.dir, "expected"), exist_ok=True)
    weight = write_bundle(os.path.join(options.dir, "cuda.bin"), steps, code,
                          options.shared, arena, maps)
    w = struct.unpack("<%df" % N, weight)
    x = [((i * 37) % 101) / 16.0 - 3.0 for i in range(N)]
    write_npy(os.path.join(options.dir, "x.npy"), x)
    write_npy(os.path.join(options.dir, "expected", "output_0.npy"),
              [(x[i] + w[i]) * w[i] for i in range(N)])


if __name__ == "__main__":
    main()
