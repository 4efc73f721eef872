"""Real progressive JPEGs with as many scans as a test wants, written by hand.

A grey picture (every coefficient zero but the DC term) coded progressively: one DC scan,
then for each of the 63 AC coefficients a first scan and ``refinements`` refinement
scans (spectral selection plus successive approximation, as the JPEG standard allows).
Any decoder reads it (Pillow gives a flat grey 128); each scan is a full pass over the
picture, which is what makes such files slow.
"""

from __future__ import annotations

import struct


class _Bits:
    def __init__(self) -> None:
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def put(self, value: int, count: int) -> None:
        for i in range(count - 1, -1, -1):
            self.acc = (self.acc << 1) | ((value >> i) & 1)
            self.n += 1
            if self.n == 8:
                self.out.append(self.acc)
                if self.acc == 0xFF:
                    self.out.append(0)
                self.acc = self.n = 0

    def flush(self) -> bytes:
        if self.n:
            self.put((1 << (8 - self.n)) - 1, 8 - self.n)
        return bytes(self.out)


def _segment(marker: int, payload: bytes) -> bytes:
    return struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload


# AC table: symbols 0x00 (EOB) and 0x10..0xE0 (EOBn: a run of 2^n..2^(n+1)-1 blocks),
# all 4-bit codes 0000..1110 in symbol order.
_AC_SYMBOLS = [n << 4 for n in range(15)]
_AC_CODE = {symbol: index for index, symbol in enumerate(_AC_SYMBOLS)}


def _eob_runs(bits: _Bits, blocks: int) -> None:
    while blocks:
        run = min(blocks, 32767)
        n = run.bit_length() - 1
        bits.put(_AC_CODE[n << 4], 4)
        if n:
            bits.put(run - (1 << n), n)
        blocks -= run


def progressive_jpeg(width: int, height: int, *, refinements: int) -> bytes:
    """A grey progressive JPEG with ``1 + 63 * (1 + refinements)`` scans."""
    blocks = -(-width // 8) * -(-height // 8)
    out = bytearray(b"\xff\xd8")
    out += _segment(0xDB, b"\x00" + bytes([1] * 64))  # quantisation: all ones
    out += _segment(0xC2, struct.pack(">BHHB", 8, height, width, 1) + bytes([1, 0x11, 0]))
    dc = bytes([1] + [0] * 15) + bytes([0])  # one code '0': difference category 0
    ac = bytes([0, 0, 0, 15] + [0] * 12) + bytes(_AC_SYMBOLS)
    out += _segment(0xC4, bytes([0x00]) + dc + bytes([0x10]) + ac)

    def scan(ss: int, se: int, ah: int, al: int, data: bytes) -> None:
        out.extend(_segment(0xDA, bytes([1, 1, 0x00, ss, se, (ah << 4) | al])))
        out.extend(data)

    bits = _Bits()
    for _ in range(blocks):
        bits.put(0, 1)
    scan(0, 0, 0, 0, bits.flush())
    for k in range(1, 64):
        passes = [(0, refinements)] + [(a, a - 1) for a in range(refinements, 0, -1)]
        for ah, al in passes:
            bits = _Bits()
            _eob_runs(bits, blocks)
            scan(k, k, ah, al, bits.flush())
    out += b"\xff\xd9"
    return bytes(out)
