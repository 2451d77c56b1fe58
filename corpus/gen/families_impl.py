"""Corpus families for issue 23's survivors: what impl/'s surviving mutants showed missing.

`./scnfuzz mutate --target impl --file impl/src --sample 600 --seed 8` left mutants of the
kernel conversions alive because no case held the value or form that tells them apart: an
IPv4 byte of 99 (a hundreds digit printed for 99), a FourCC byte 0x7e ('~', the last printable),
a letter after %pISh that is no order letter, a bitmap whose top chunk has 5 bits and a small
value (its zero-padded hex width), a bitmap of more than 2016 bits (the 64-bit word of chunk
2016), times before 0000-03-01 (the floor division of a negative day count by the 400-year era)
%0px of NULL (the 0 flag with pointer_string's own zero padding) and the Latin-1 letters
after %p that lib/ctype.c counts as alphanumeric (skipped with the extension) or not (0xd7, 0xf7). Each expectation is
model_kernel's (lib/vsprintf.c and kernel/time/timeconv.c as the model reads them), kernel
column only, as every %p extension case (families_pext.py).

fam_impl_float_sources: the float engine's survivors (float_big.c, float_round.c), each case
built where a mutant's digits differ (see its docstring); expectations model_iso's (MPFR).

FAMILIES lists them; families.all_cases() runs them after the others.
"""
from families import DB, I, KSTOP, case
from families_pext import PCITE, _kcase, sockaddr_in, time64

SURVIVORS = "; a case for impl/'s surviving mutants (scnfuzz mutate, issue 23)"


def fam_impl_kernel_values():
    """%p extensions at the values impl's kernel conversions' survivors need."""
    out = []
    k = lambda cat, f, a, extra="": _kcase(out, cat, f, a, extra + SURVIVORS)  # noqa: E731
    # ip4_text's hundreds digit: b >= 100, not 99
    for a4 in (b"\x63\x01\x02\x03", b"\x0a\x63\x00\x64"):
        k("kernel.pI", "%pI4|", [("mem", a4)])
    k("kernel.pI", "%pi4|", [("mem", b"\x63\x09\x0a\x64")], "; %pi4: three digits each")
    # fourcc_string(): 0x20 <= c < 0x7f printed as it is, else '.'
    k("kernel.p4cc", "%p4cc|", [("mem", (0x7e7d2120).to_bytes(4, "little"))])
    # ip_addr_string(): every alphanumeric after %pIS is read; only h l n b set the order, the last wins
    sa = sockaddr_in(b"\xc0\xa8\x01\x0a", 80)
    for f in ("%pISha|", "%pISlA|", "%pIShd|", "%pISlg|"):
        k("kernel.pIS", f, [("mem", sa)], "; letters that are no order letter leave the order as it is")
    # bitmap_string(): the top chunk (nbits % 32 bits) zero-padded to (chunk + 3) / 4 hex digits
    for n, bits in ((5, 0x01), (6, 0x0f), (37, 0x1_0000_0001)):
        k("kernel.pb", "%*pb|", [I(n), ("mem", bits.to_bytes(8, "little"))], "; the top chunk's width")
    # the 32-bit chunk at bit 2016 and above lies in the 64-bit word 31 (2016 / 64), not 32
    big = bytearray(264)
    big[252:256] = b"\x01\x02\x03\x84"
    big[256:260] = b"\x05\x06\x07\x08"
    k("kernel.pb", "%*pb|", [I(2080), ("mem", bytes(big))], "; chunks above bit 2016")
    k("kernel.pb", "%*pbl|", [I(2080), ("mem", bytes(big))], "; bits above 2016 as a list")
    # time64_to_tm() of days before 0000-03-01: the era is the floor of a negative day count
    for t in (-62162121600, -62162035201, -87407596800, -87407596801):
        k("kernel.pt", "%ptT|", [time64(t)], "; proleptic Gregorian, UTC, before year 0's 1 March")
    # pointer_string(): no width: 16 digits zero-padded, whatever the flags said
    for f in ("%0px|", "%-px|", "%0-px|"):
        k("kernel.px", f, [("mem", None)], "; NULL unhashed")
    # pointer(): the alphanumerics after %p are the extension and are skipped, with lib/ctype.c's
    # Latin-1 letters (0xc0-0xff but 0xd7 and 0xf7, the multiplication and division signs) among them
    cite = ("lib/vsprintf.c pointer(), pointer_string(); lib/ctype.c _ctype[] (Latin-1: 0xd7, 0xf7 are _P); "
            "plain %p as no_hash_pointers")
    for f in ("%p\xd7|", "%p\xf7|", "%px\xd7|", "%p\xe9|", "%px\xe9|"):
        out.append(case("kernel.ptr", f, [("ptr", 0x1234)], "std", cite + SURVIVORS, iso=False))
    return out



# ---- impl/'s float survivors (float_big.c, float_round.c): the exact engine's limb sources

def _ld(sign, unbiased, mant):
    """An x87 long double: mant (64 bits, the integer bit set) * 2^(unbiased - 63)."""
    return ("ldouble", (sign, unbiased + 16383, mant))


def _huge_division_edge(L, above, min_x=28, min_index=None):
    """A long double M * 2^E2 whose %.{L-1}Le takes the truncated source for huge values
    (float_big.c fp_huge_src: q = floor(value / 10^x), x = El - L, by Knuth's algorithm D over
    32-bit digits) so that the dividend's two top words are the normalised divisor's 5^x top
    two (M = their 64 bits, plus 1 when `above`) on a word boundary: the first quotient digit's
    estimate is 1 and passes the v[n-2] test, and it is 1 too large (above = False: the lower
    words of 5^x are not zero, so add-back runs) or exact (above: one more unit, no add-back).
    min_index: also the word 2 * (the dividend's top word's index) of fp_huge_src's work area
    (w32 + 366 + 2 * mu) lies in the 5^x product it built (w32[1010..]) and is below v[n-2]."""
    for E2 in range(1, 16320):
        l2 = 63 + E2
        x = ((l2 * 1292913986) >> 32) - 1 - L  # try_trunc's El - L
        if x < min_x or x > 5000:
            continue
        p = 5 ** x
        n = (p.bit_length() + 31) // 32
        sh = 32 * n - p.bit_length()
        bs = E2 - x + sh
        if bs % 32:
            continue
        v = p << sh
        top = v >> (32 * (n - 2))
        if min_index is not None:
            idx = 366 + 2 * (bs // 32 + 2)
            nb = (p.bit_length() + 63) // 64
            if not min_index <= idx < 920 + 2 * nb:
                continue
            w = (p >> (32 * (idx - 920))) & 0xffffffff  # the 5^x product's words from w32[920]
            if w >= top & 0xffffffff or top & 0xffffffff == 0xffffffff:
                continue
        return _ld(0, l2, top + (1 if above else 0))
    raise AssertionError("no long double for L=%d" % L)


def fam_impl_float_sources():
    """Values and precisions that take the exact engine's limb sources where impl/'s surviving
    mutants change the digits: a long double expanded whole with 5^13 steps ending on a 5^12
    one (fp_big_init), the huge-value division's add-back and its v[n-2] test (fp_huge_src),
    an integer whose last significant digits share a limb with the rounding position (the sticky
    scan of src_sticky), a negative value rounded downward on the exact route (want_up), and a
    %f of a value far below its last place under a directed rounding (round_src's lower clamp).
    Expectations from MPFR (model_iso); the directed ones are called under their direction."""
    from families_round import rcase
    out = []
    ch = "C17 7.21.6.1p8 (e), p13 (correctly rounded), F.5; kernel " + KSTOP + SURVIVORS
    # 2^-3067 * m (m odd): fp_big_init multiplies by 5^3067 = (5^13)^235 * 5^12; %.1200Le needs more digits
    # than the truncated source keeps (TRUNC_DIG 1152), so the whole expansion is used
    out.append(case("float.hard", "%.1200Le", [_ld(0, -3004, 0xc90fdaa22168c235)], "std",
                    ch + " (whole expansion of 0xc90fdaa22168c235p-3067)"))
    out.append(case("float.hard", "%.26Le", [_huge_division_edge(27, False)], "std",
                    ch + " (huge value: quotient digit estimated 1 too large, add-back)"))
    out.append(case("float.hard", "%.26Le", [_huge_division_edge(27, True)], "std",
                    ch + " (huge value: quotient digit estimate exact, v[n-2] test false)"))
    out.append(case("float.hard", "%.604Le", [_huge_division_edge(605, True, 2500, 1010)], "std",
                    ch + " (huge value: 5^x of some 8,000 bits, estimate exact)"))
    what = "2^100 * 5^27 = 2^73 * 10^27: 22 significant digits then zeros; rounded at the 22nd, nothing beyond"
    big = 5 ** 27 << 1
    out.append(rcase("%.21Le", _ld(0, 162, big), "upward", what))
    out.append(rcase("%.21Le", _ld(1, 162, big), "downward", what))
    out.append(rcase("%.19e", DB(0xbe10000000000000), "downward",
                     "-2^-30 = -9.31322574615478515625e-10: the 21st digit 5, nothing beyond"))
    out.append(rcase("%.20f", DB(0xb9b4484bfeebc2a0), "downward", "-1e-30 below the 20th place: -0.00...01"))
    for sign, direction in ((0, "upward"), (1, "downward")):
        out.append(rcase("%.420Lf", _ld(sign, -1661, 0x8000000000000001), direction,
                         "(2^63 + 1) * 2^-1724, some 10^-500: 420 places, the first non-zero digit far below them"))
    return out


FAMILIES = (fam_impl_kernel_values, fam_impl_float_sources)
