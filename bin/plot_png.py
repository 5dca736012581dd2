"""A small PNG bar-chart writer for ``bin/simulate --png`` (pure Python: zlib and struct).

Why not matplotlib: the plot is three bar charts with a few labels; matplotlib would bring
numpy, Pillow, fontTools and more (~60 MB) into the game's one shared venv for one optional
file of one admin script. This writer is ~200 lines with a 5x7 bitmap font (upper case,
digits, a little punctuation), and its output is a plain 8-bit RGB PNG.
"""

from __future__ import annotations

import struct
import zlib
from typing import Mapping, Sequence

WHITE, BLACK, GREY, LIGHT = (255, 255, 255), (30, 30, 30), (120, 120, 120), (225, 225, 225)
BLUE, ORANGE, GREEN = (31, 119, 180), (255, 127, 14), (44, 160, 44)

# 5x7 glyphs, one string of 5 bits per row (HD44780-like shapes).
_GLYPHS = {
    "A": "01110 10001 10001 10001 11111 10001 10001",
    "B": "11110 10001 10001 11110 10001 10001 11110",
    "C": "01110 10001 10000 10000 10000 10001 01110",
    "D": "11100 10010 10001 10001 10001 10010 11100",
    "E": "11111 10000 10000 11110 10000 10000 11111",
    "F": "11111 10000 10000 11110 10000 10000 10000",
    "G": "01110 10001 10000 10111 10001 10001 01111",
    "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110",
    "J": "00111 00010 00010 00010 00010 10010 01100",
    "K": "10001 10010 10100 11000 10100 10010 10001",
    "L": "10000 10000 10000 10000 10000 10000 11111",
    "M": "10001 11011 10101 10101 10001 10001 10001",
    "N": "10001 10001 11001 10101 10011 10001 10001",
    "O": "01110 10001 10001 10001 10001 10001 01110",
    "P": "11110 10001 10001 11110 10000 10000 10000",
    "Q": "01110 10001 10001 10001 10101 10010 01101",
    "R": "11110 10001 10001 11110 10100 10010 10001",
    "S": "01111 10000 10000 01110 00001 00001 11110",
    "T": "11111 00100 00100 00100 00100 00100 00100",
    "U": "10001 10001 10001 10001 10001 10001 01110",
    "V": "10001 10001 10001 10001 10001 01010 00100",
    "W": "10001 10001 10001 10101 10101 10101 01010",
    "X": "10001 10001 01010 00100 01010 10001 10001",
    "Y": "10001 10001 10001 01010 00100 00100 00100",
    "Z": "11111 00001 00010 00100 01000 10000 11111",
    "0": "01110 10001 10011 10101 11001 10001 01110",
    "1": "00100 01100 00100 00100 00100 00100 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111",
    "3": "11111 00010 00100 00010 00001 10001 01110",
    "4": "00010 00110 01010 10010 11111 00010 00010",
    "5": "11111 10000 11110 00001 00001 10001 01110",
    "6": "00110 01000 10000 11110 10001 10001 01110",
    "7": "11111 00001 00010 00100 01000 01000 01000",
    "8": "01110 10001 10001 01110 10001 10001 01110",
    "9": "01110 10001 10001 01111 00001 00010 01100",
    " ": "00000 00000 00000 00000 00000 00000 00000",
    ".": "00000 00000 00000 00000 00000 01100 01100",
    ",": "00000 00000 00000 00000 01100 00100 01000",
    ":": "00000 01100 01100 00000 01100 01100 00000",
    "%": "11000 11001 00010 00100 01000 10011 00011",
    "(": "00010 00100 01000 01000 01000 00100 00010",
    ")": "01000 00100 00010 00010 00010 00100 01000",
    "-": "00000 00000 00000 11111 00000 00000 00000",
    "+": "00000 00100 00100 11111 00100 00100 00000",
    "/": "00000 00001 00010 00100 01000 10000 00000",
    "=": "00000 00000 11111 00000 11111 00000 00000",
    "[": "01110 01000 01000 01000 01000 01000 01110",
    "]": "01110 00010 00010 00010 00010 00010 01110",
    "_": "00000 00000 00000 00000 00000 00000 11111",
    "#": "01010 01010 11111 01010 11111 01010 01010",
    "?": "01110 10001 00001 00010 00100 00000 00100",
    "'": "01100 00100 01000 00000 00000 00000 00000",
}
_FONT = {c: [row for row in rows.split()] for c, rows in _GLYPHS.items()}


class Canvas:
    """An RGB image in memory, drawn with rectangles and text, saved as PNG."""

    def __init__(self, width: int, height: int, background=WHITE):
        self.w, self.h = width, height
        self.px = bytearray(bytes(background) * (width * height))

    def rect(self, x0: int, y0: int, x1: int, y1: int, colour) -> None:
        """Fill [x0, x1) x [y0, y1), clipped to the image."""
        x0, x1 = max(0, min(x0, x1)), min(self.w, max(x0, x1))
        y0, y1 = max(0, min(y0, y1)), min(self.h, max(y0, y1))
        if x0 >= x1:
            return
        row = bytes(colour) * (x1 - x0)
        for y in range(y0, y1):
            at = 3 * (y * self.w + x0)
            self.px[at:at + len(row)] = row

    def text(self, x: int, y: int, text: str, colour=BLACK, scale: int = 2,
             anchor: str = "left") -> int:
        """Draw ``text`` (upper-cased) with its top at ``y``; returns its width in pixels."""
        text = text.upper()
        width = text_width(text, scale)
        if anchor == "center":
            x -= width // 2
        elif anchor == "right":
            x -= width
        for ch in text:
            rows = _FONT.get(ch, _FONT["?"])
            for r, bits in enumerate(rows):
                for c, bit in enumerate(bits):
                    if bit == "1":
                        self.rect(x + c * scale, y + r * scale, x + (c + 1) * scale,
                                  y + (r + 1) * scale, colour)
            x += 6 * scale
        return width

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(self.px[3 * y * self.w:3 * (y + 1) * self.w])
                       for y in range(self.h))

        def chunk(kind: bytes, data: bytes) -> bytes:
            return (struct.pack(">I", len(data)) + kind + data
                    + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

        ihdr = struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)  # 8-bit RGB
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def text_width(text: str, scale: int = 2) -> int:
    return max(0, 6 * scale * len(text) - scale)


def bar_chart(cv: Canvas, box: tuple[int, int, int, int], title: str,
              series: Sequence[tuple[str, Mapping[int, int], tuple]], top: int = 16) -> None:
    """Shares per value (each series as a share of its own total), bars side by side; the
    values past the ``top`` first are folded into the last one (``N+``)."""
    x0, y0, x1, y1 = box
    cv.text(x0, y0, title, scale=2)
    keys = sorted({k for _, hist, _ in series for k in hist})
    if len(keys) > top:
        keys = keys[:top]
    shares = []
    for _, hist, _ in series:
        n = sum(hist.values()) or 1
        row = [hist.get(k, 0) / n for k in keys]
        if keys and len({k for _, h, _ in series for k in h}) > top:
            row[-1] = sum(v for k, v in hist.items() if k >= keys[-1]) / n
        shares.append(row)
    peak = max((s for row in shares for s in row), default=0) or 1.0
    # the axis: four grid steps of a round share (1, 2, 5, 10, 20 or 25%) above the peak
    step = next(st for st in (1, 2, 5, 10, 20, 25) if 4 * st >= 100 * peak - 1e-9)
    peak = 4 * step / 100
    left, bottom, top_y = x0 + 56, y1 - 30, y0 + 50
    height = bottom - top_y
    for i in range(5):  # grid lines and their shares
        y = bottom - round(height * i / 4)
        cv.rect(left, y, x1, y + 1, LIGHT if i else GREY)
        cv.text(left - 6, y - 7, f"{round(100 * peak * i / 4)}%", GREY, 2, anchor="right")
    lx = left
    for name, _, colour in series:  # the legend, under the title
        cv.rect(lx, y0 + 26, lx + 14, y0 + 40, colour)
        lx += 20 + cv.text(lx + 20, y0 + 27, name[:28], BLACK, 2) + 20
    if not keys:
        cv.text((left + x1) // 2, (top_y + bottom) // 2, "NO DATA", GREY, 2, "center")
        return
    slot = (x1 - left) / len(keys)
    bar_w = max(2, int(slot * 0.8 / len(series)))
    for i, k in enumerate(keys):
        sx = left + round(i * slot + slot * 0.1)
        for j, (_, _, colour) in enumerate(series):
            h = round(height * shares[j][i] / peak)
            cv.rect(sx + j * bar_w, bottom - h, sx + (j + 1) * bar_w, bottom, colour)
        label = f"{k}+" if i == len(keys) - 1 and len(
            {kk for _, h, _ in series for kk in h}) > top else str(k)
        cv.text(left + round((i + 0.5) * slot), bottom + 8, label, BLACK, 2, "center")


def write_summary(path: str, m, s) -> None:
    """Turns until a side falls, and damage per attack of each side, as one PNG."""
    cv = Canvas(1000, 760)
    head = (f"{m.a.name[:16]} {100 * s.a.share:.1f}%, {m.b.name[:16]} "
            f"{100 * s.b.share:.1f}%, draw {100 * s.draw_share:.1f}% ({s.fights} fights, "
            f"{m.ruleset})")
    cv.text(20, 16, head, BLACK, 2 if text_width(head, 2) <= 960 else 1)
    bar_chart(cv, (20, 50, 980, 380),
              f"Turns until one side falls (mean {s.turns_mean:.2f}, median "
              f"{s.turns_median:g})", [("fights", s.turns, GREEN)])
    bar_chart(cv, (20, 410, 980, 740), "Damage per attack",
              [(f"{m.a.name} ({100 * s.a.hit_rate:.0f}% land)", s.a.damage, BLUE),
               (f"{m.b.name} ({100 * s.b.hit_rate:.0f}% land)", s.b.damage, ORANGE)])
    with open(path, "wb") as fh:
        fh.write(cv.png())
