#!/usr/bin/env python3
"""Writes the code objects of a model.bin to files, for inspection.

    scripts/extract-code.py model.bin OUT_DIR

Each CODE section's image becomes OUT_DIR/<index>-<arch>.<so|cubin|ptx|hsaco>
(docs/bundle-format.md: the section table, then each code header's
image_offset and image_size). Inspect them with llvm-readelf --notes,
llvm-objdump -d, cuobjdump or nvdisasm.
"""
import os
import struct
import sys

SECTION_CODE = 4
EXTENSIONS = {1: "so", 2: "cubin", 3: "ptx", 4: "hsaco"}


def main():
    path, out = sys.argv[1], sys.argv[2]
    data = open(path, "rb").read()
    if data[:8] != b"AICCBNDL":
        sys.exit(f"{path}: not a bundle")
    table, count = struct.unpack_from("<QI", data, 24)
    sections = [struct.unpack_from("<IIQQII", data, table + 32 * i)
                for i in range(count)]
    strings = next(s for s in sections if s[0] == 1)
    os.makedirs(out, exist_ok=True)
    index = 0
    for kind, _, offset, size, _, _ in sections:
        if kind != SECTION_CODE:
            continue
        target, fmt, arch = struct.unpack_from("<III", data, offset)
        image_offset, image_size = struct.unpack_from("<QQ", data, offset + 24)
        start = strings[2] + arch
        name = data[start:data.index(b"\0", start)].decode()
        image = data[offset + image_offset:offset + image_offset + image_size]
        if fmt == 3:
            image = image.rstrip(b"\0")
        file = os.path.join(out, f"{index}-{name}.{EXTENSIONS.get(fmt, 'bin')}")
        with open(file, "wb") as f:
            f.write(image)
        print(file)
        index += 1


if __name__ == "__main__":
    main()
