"""Floating-point values kept exact in the generator, as the case model takes
them (runner/scnfuzz/casetext.py):
  double  -> its 64-bit IEEE-754 pattern (int)
  ldouble -> (sign, biased exponent, 64-bit significand) of the x87 80-bit format
"""
import struct


def dbits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def dfloat(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


DNAN = 0x7FF8000000000000
DNEGNAN = 0xFFF8000000000000


def ld_from_float(x: float):
    """Exact long double holding the double x."""
    b = dbits(x)
    s, e, f = b >> 63, (b >> 52) & 0x7FF, b & ((1 << 52) - 1)
    if e == 0x7FF:
        return (s, 0x7FFF, (1 << 63) | (f << 11) if f else 1 << 63)
    if e == 0 and f == 0:
        return (s, 0, 0)
    m, ex = (f, -1074) if e == 0 else ((1 << 52) | f, e - 1075)
    return ld_from_exact(s, m, ex)


def ld_from_exact(sign, m, ex):
    """long double equal to (-1)^sign * m * 2^ex (must be exact)."""
    if m == 0:
        return (sign, 0, 0)
    L = m.bit_length()
    # normalise to 64-bit significand: value = M * 2^(E-16383-63)
    shift = 64 - L
    M = m << shift if shift >= 0 else m >> -shift
    assert shift >= 0 or m & ((1 << -shift) - 1) == 0, "inexact"
    E = ex - shift + 16383 + 63
    if E <= 0:  # subnormal: biased exponent 0 means 2^(1-16383-63)
        s2 = 1 - E
        assert M & ((1 << s2) - 1) == 0, "inexact subnormal"
        M >>= s2
        E = 0
    assert E < 0x7FFF
    return (sign, E, M)
