"""Draw the installable app's icons (static/icons/) without an image library: a chessboard of
4×4 squares on the navigation bar's dark colour, written as PNG with zlib; and the site's
``favicon.ico`` (16 and 32 px, each image a PNG inside the ICO file, as ICO allows).

The icons are committed; run this again only to change them:
``.venv/bin/python bin/app_icons.py``. The maskable icon keeps the board inside the middle
60 % (the safe zone of a maskable icon is the middle 80 % circle); the others fill 80 %.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
BACKGROUND = (0x21, 0x25, 0x29)  # Bootstrap's dark navigation bar (#212529)
LIGHT = (0xF8, 0xF9, 0xFA)
DARK = (0x6C, 0x75, 0x7D)


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def board_png(size: int, board_share: float) -> bytes:
    """A ``size``×``size`` RGB PNG: a 4×4 board taking ``board_share`` of the width, centred."""
    board = int(size * board_share) // 4 * 4
    start = (size - board) // 2
    square = board // 4
    rows = []
    for y in range(size):
        row = bytearray([0])  # filter type 0 (none) for every scanline
        for x in range(size):
            bx, by = x - start, y - start
            if 0 <= bx < board and 0 <= by < board:
                row += bytes(LIGHT if (bx // square + by // square) % 2 == 0 else DARK)
            else:
                row += bytes(BACKGROUND)
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + _chunk(b"IEND", b"")
    )


def favicon_ico(sizes: tuple[int, ...] = (16, 32)) -> bytes:
    """An ICO file whose images are PNGs of the board (one per size, full width)."""
    images = [board_png(size, 1.0) for size in sizes]
    offset = 6 + 16 * len(images)
    entries = b""
    for size, image in zip(sizes, images, strict=True):
        # width, height, colours, reserved, planes, bits per pixel, bytes, offset
        entries += struct.pack("<BBBBHHII", size, size, 0, 0, 1, 24, len(image), offset)
        offset += len(image)
    return struct.pack("<HHH", 0, 1, len(images)) + entries + b"".join(images)


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, size, share in (
        ("icon-192.png", 192, 0.8),
        ("icon-512.png", 512, 0.8),
        ("icon-maskable-512.png", 512, 0.6),
    ):
        (ICONS / name).write_bytes(board_png(size, share))
        print(f"static/icons/{name}: {size}×{size}")
    (ICONS / "favicon.ico").write_bytes(favicon_ico())
    print("static/icons/favicon.ico: 16×16, 32×32")


if __name__ == "__main__":
    main()
