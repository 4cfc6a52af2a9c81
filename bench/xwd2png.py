#!/usr/bin/env python3
"""Converts an X window dump (xwd, 24/32-bit TrueColor ZPixmap as Xvfb writes it) on stdin to a PNG file.

  xwd -root -display :N | bench/xwd2png.py OUT.png

Standard library only (zlib), so screenshots need no ImageMagick.
"""
import struct, sys, zlib

def main():
    data = sys.stdin.buffer.read()
    (header_size, version, fmt, depth, width, height, _xoff, byte_order, _unit, _bit_order, _pad, bpp,
     bytes_per_line, _vclass, red_mask, green_mask, blue_mask) = struct.unpack(">17I", data[:68])
    ncolors = struct.unpack(">I", data[76:80])[0]
    if version != 7 or fmt != 2 or bpp not in (24, 32):
        sys.exit("xwd2png: expected an xwd version 7 ZPixmap of 24 or 32 bits per pixel, got version %d format %d "
                 "%d bits" % (version, fmt, bpp))
    pixels = data[header_size + 12 * ncolors:]
    step = bpp // 8
    order = "<I" if byte_order == 0 else ">I"
    shifts = [(m & -m).bit_length() - 1 for m in (red_mask, green_mask, blue_mask)]
    rows = []
    for y in range(height):
        line = pixels[y * bytes_per_line:y * bytes_per_line + width * step]
        out = bytearray(b"\0")
        for x in range(width):
            raw = line[x * step:(x + 1) * step] + (b"\0" if step == 3 else b"")
            v = struct.unpack(order, raw)[0]
            out += bytes(((v & red_mask) >> shifts[0], (v & green_mask) >> shifts[1], (v & blue_mask) >> shifts[2]))
        rows.append(bytes(out))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 6)) + chunk(b"IEND", b"")
    with open(sys.argv[1], "wb") as f:
        f.write(png)

if __name__ == "__main__":
    main()
