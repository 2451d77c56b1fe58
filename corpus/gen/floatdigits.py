"""Exact decimal digits of doubles and x87 long doubles.

Two independent sources that must agree on every request:
  - MPFR (corpus/gen/mpfr_fmt.c, compiled into a temporary directory),
  - Python's decimal module on the exact rational value m * 2^e.
Rounding: in the case's direction (C17 F.5 and IEEE 754-2019 5.12.2: binary-to-decimal
conversion honours the current rounding direction; 7.21.6.1p13): to nearest, ties to even
(the default), or upward, downward, toward zero (Oracle.round, set per case by the
generator). MPFR is asked in the signed direction (MPFR_RNDU/RNDD/RNDZ on the signed value),
decimal rounds the absolute value away from or toward zero: two derivations that must agree.
"""
import decimal
import os
import shutil
import subprocess
import sys
import tempfile

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)   # exact decimals of long doubles have > 4300 digits


class FP:
    """sign, kind ('fin', 'inf', 'nan'), exact value m * 2^e (m >= 0), and the
    request key for mpfr_fmt."""
    __slots__ = ("sign", "kind", "m", "e", "key", "skey")

    @staticmethod
    def of(t, v):
        fp = FP()
        if t == "double":
            b = v
            fp.sign = b >> 63
            ex, f = (b >> 52) & 0x7FF, b & ((1 << 52) - 1)
            fp.key = "D %016x" % (b & ((1 << 63) - 1))
            fp.skey = "D %016x" % b
            if ex == 0x7FF:
                fp.kind = "inf" if f == 0 else "nan"
                fp.m, fp.e = 0, 0
            else:
                fp.kind = "fin"
                fp.m, fp.e = (f, -1074) if ex == 0 else ((1 << 52) | f, ex - 1075)
        else:
            s, ex, m = v
            fp.sign = s
            fp.key = "L %04x %016x" % (ex, m)
            fp.skey = "L %04x %016x" % (ex | (s << 15), m)
            if ex == 0x7FFF:
                fp.kind = "inf" if (m & ((1 << 63) - 1)) == 0 else "nan"
                fp.m, fp.e = 0, 0
            else:
                if ex != 0 and not (m >> 63):
                    raise ValueError("unnormal long double not used by the corpus")
                fp.kind = "fin"
                fp.m, fp.e = m, (ex if ex else 1) - 16383 - 63
        if fp.m == 0:
            fp.e = 0
        return fp


def exact_decimal(m, e):
    if e >= 0:
        return decimal.Decimal(m << e)
    # m * 2^e = (m * 5^-e) * 10^e, built from its digits (exact, no context rounding)
    n = m * 5 ** (-e)
    return decimal.Decimal((0, tuple(int(ch) for ch in str(n)), e))


# Directions: the request's letter for mpfr_fmt, and decimal's rounding of the
# absolute value for a positive and a negative value (upward rounds a negative
# value's magnitude toward zero).
ROUNDINGS = {
    "nearest": ("N", decimal.ROUND_HALF_EVEN, decimal.ROUND_HALF_EVEN),
    "upward": ("U", decimal.ROUND_UP, decimal.ROUND_DOWN),
    "downward": ("D", decimal.ROUND_DOWN, decimal.ROUND_UP),
    "towardzero": ("Z", decimal.ROUND_DOWN, decimal.ROUND_DOWN),
}


def magnitude_rounding(direction, negative):
    """decimal's rounding of |value| for the direction (ROUND_UP: away from zero)."""
    return ROUNDINGS[direction][2 if negative else 1]


def dec_fixed(m, e, p, rounding=decimal.ROUND_HALF_EVEN):
    d = exact_decimal(m, e)
    ctx = decimal.Context(prec=len(str(m)) + abs(e) + p + 10, rounding=rounding,
                          Emax=10 ** 6, Emin=-10 ** 6)
    q = d.quantize(decimal.Decimal(1).scaleb(-p), context=ctx)
    s = "{:f}".format(q)
    if "." not in s and p > 0:
        s += "." + "0" * p
    return s


def dec_sci(m, e, p, rounding=decimal.ROUND_HALF_EVEN):
    if m == 0:
        return "0" * (p + 1), 0
    d = exact_decimal(m, e)
    ctx = decimal.Context(prec=p + 1, rounding=rounding, Emax=10 ** 6, Emin=-10 ** 6)
    r = ctx.plus(d)
    sign, dg, ex = r.as_tuple()
    ds = "".join(map(str, dg))
    ds = (ds + "0" * (p + 1))[:p + 1]
    return ds, ex + len(dg) - 1


class Oracle:
    def __init__(self):
        here = os.path.dirname(os.path.abspath(__file__))
        self.tmp = tempfile.mkdtemp(prefix="scn-mpfr-")
        exe = os.path.join(self.tmp, "mpfr_fmt")
        cc = os.environ.get("CC", "cc")
        subprocess.run([cc, "-O2", "-o", exe, os.path.join(here, "mpfr_fmt.c"), "-lmpfr", "-lgmp"],
                       check=True)
        self.proc = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.cache = {}
        self.requests = 0
        self.round = "nearest"   # the direction of the case being modelled (generate.py sets it)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _ask(self, fp, conv, p):
        letter = ROUNDINGS[self.round][0]
        if letter == "N":   # the absolute value's digits, as always (the request unchanged)
            k, req = (fp.key, conv, p), "%s %s %d\n" % (fp.key, conv, p)
        else:               # the signed value in the direction; the answer's '-' dropped
            k, req = (fp.skey, conv, p, letter), "%s %s %d %s\n" % (fp.skey, conv, p, letter)
        if k not in self.cache:
            self.proc.stdin.write(req)
            self.proc.stdin.flush()
            line = self.proc.stdout.readline().rstrip("\n")
            if not line:
                raise RuntimeError("mpfr_fmt died")
            self.cache[k] = line.lstrip("-")
            self.requests += 1
        return self.cache[k]

    def _mag_rounding(self, fp):
        return magnitude_rounding(self.round, fp.sign)

    def fixed(self, fp, p):
        """|value| with p digits after the point ('%.pf' digits, no sign), rounded
        in the direction self.round."""
        s = self._ask(fp, "f", p)
        d = dec_fixed(fp.m, fp.e, p, self._mag_rounding(fp))
        if s != d:
            raise AssertionError("MPFR/decimal disagree: %s f %d: %s vs %s" % (fp.key, p, s, d))
        return s

    def sci(self, fp, p):
        """(p+1 significant digits, decimal exponent) of |value|, rounded in the
        direction self.round."""
        s = self._ask(fp, "e", p)
        mant, ex = s.split("e")
        ds = mant.replace(".", "")
        x = int(ex)
        d = dec_sci(fp.m, fp.e, p, self._mag_rounding(fp))
        if (ds, x) != d:
            raise AssertionError("MPFR/decimal disagree: %s e %d: %s vs %s" % (fp.key, p, (ds, x), d))
        return ds, x
