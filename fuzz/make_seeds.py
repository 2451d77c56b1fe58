#!/usr/bin/python3
"""Writes the seed corpora corpus/fuzz/<fuzzer>/ (deterministic).

Seeds for the byte-decoding fuzzers follow the grammar of
core/case/case_decode.c behind the ctrl byte of fuzz/fuzz_core.h:
one file per conversion of the dialect's table (with a few flag / width /
precision / length / value variations), plus literal-only and mixed inputs.
fuzz_parse gets case lines in the text form (docs/CASE_FORMAT.md).
The fuzzers with decode=kptr (fuzzers.tsv) decode kernel inputs with two
more table entries, 'K': the %p extensions (KPTR_EXT, case_decode_kptr.c's
kptr_ext[]) with their mem arguments; fuzz_kernel_diff gets one seed per
extension and some NULL / ERR / structured-byte ones.

    /usr/bin/python3 fuzz/make_seeds.py [REPO [FUZZER...]]

With FUZZER names, only their directories are rewritten.
"""
import os
import sys

ISO_TABLE = "diuoxXcsp%dxu" + "n" + "fFeEgGaAfeg"
KERNEL_TABLE = "diuoxXcsp%dxus"
KERNEL_KPTR_TABLE = KERNEL_TABLE + "KK"  # SCN_DECODE_KPTR
# (extension, bytes it reads; 0: %ph, its width), in case_decode_kptr.c's order
KPTR_EXT = [("M", 6), ("MR", 6), ("MF", 6), ("m", 6), ("mR", 6), ("mF", 6),
            ("I4", 4), ("I4h", 4), ("I4n", 4), ("I4b", 4), ("I4l", 4),
            ("i4", 4), ("i4h", 4), ("i4n", 4), ("i4b", 4), ("i4l", 4),
            ("I6", 16), ("i6", 16), ("I6c", 16), ("i6c", 16),
            ("h", 0), ("hC", 0), ("hD", 0), ("hN", 0), ("a", 8), ("ap", 8), ("ad", 8),
            ("U", 16), ("Ub", 16), ("UB", 16), ("Ul", 16), ("UL", 16)]
KPTR_V = 64  # kptr_ext[64]: %pV, its mem argument a VAF whose format case_decode_kptr.c's vaf_format() builds


def op_for(table, conv):
    k = table.index(conv)
    for op in range(0x38, 0x100):
        if op % len(table) == k:
            return op
    raise ValueError(conv)


def conv_item(table, conv, flags=0, wmode=0, pmode=0, lsel=0, vc=0, width=0, prec=0, value=b""):
    out = bytes([op_for(table, conv), flags | (wmode << 5), pmode | (lsel << 2) | (vc << 5)])
    if wmode in (1, 3):
        out += bytes([width & 0xFF, width >> 8])
    elif wmode == 2:
        out += bytes([width & 0xFF, (width >> 8) & 0xFF])
    if pmode == 1:
        out += bytes([prec & 0xFF, prec >> 8])
    elif pmode == 2:
        out += bytes([prec & 0xFF, (prec >> 8) & 0xFF])
    return out + value


def literal(text):
    b = text.encode()
    assert 1 <= len(b) <= 16
    return bytes([len(b) - 1]) + b


def ctrl(size=0, kernel=0, robust=0, c23=0):
    return bytes([(size << 3) | (c23 << 2) | (robust << 1) | kernel])


def byte_seeds(table, kernel):
    seeds = []
    hdr = b"\x00"  # decoder header: not positional
    for i, conv in enumerate(dict.fromkeys(table)):
        if conv == "%":
            seeds.append(ctrl(3, kernel) + hdr + literal("100") + conv_item(table, "%"))
            continue
        if conv == "n" and not kernel:
            seeds.append(ctrl(2, kernel) + hdr + literal("abc") + conv_item(table, "n", lsel=i % 8))
            continue
        val = bytes([0x2A, 0x85, 0x13, 0x07, 0x40, 0x09, 0x21, 0xFB, 0x3F, 0x40])
        if conv == "K":  # the extension byte first (%pI4h), then its 4 raw bytes
            val = bytes([7]) + val[:4]
        # plain, then flags + literal width + precision, then '*' width
        seeds.append(ctrl(i % 32, kernel) + hdr + conv_item(table, conv, vc=2, value=bytes([i * 7 % 32])))
        seeds.append(ctrl((i * 5) % 32, kernel) + hdr + literal("[") +
                     conv_item(table, conv, flags=(1 + i) % 32, wmode=1, pmode=1, lsel=i % 8, vc=4,
                               width=8 + i, prec=3, value=val) + literal("]"))
        if i % 3 == 0:
            seeds.append(ctrl(1, kernel) + hdr +
                         conv_item(table, conv, flags=1, wmode=2, pmode=2, vc=3, width=12, prec=2, value=b"\x90"))
    # positional (ISO) and robust garbage
    if not kernel:
        seeds.append(ctrl(5) + b"\x05" + conv_item(table, "d", vc=2, value=b"\x03") +
                     literal(",") + conv_item(table, "s", vc=5, value=b"\x05hello"))
    seeds.append(ctrl(4, kernel, robust=1) + hdr + literal("ab") + b"\x30\x04\x01" + conv_item(table, "x"))
    seeds.append(ctrl(0, kernel, robust=1) + hdr + literal("tail") + b"\x30\x03\x02")
    return seeds


def kptr_item(ext, vc, mem=b"", flags=0, wmode=0, pmode=0, width=0, prec=0):
    """a 'K' item: %p<ext> with the mem bytes of value class vc (docs: case_decode.c)"""
    e = [x for x, _ in KPTR_EXT].index(ext)
    return conv_item(KERNEL_KPTR_TABLE, "K", flags, wmode, pmode, 0, vc, width, prec, bytes([e]) + mem)


def kptr_seeds():
    seeds = []
    hdr = b"\x00"
    raw = bytes(range(0x21, 0x61))
    for i, (ext, n) in enumerate(KPTR_EXT):
        if n:  # the right bytes, raw (vc 4)
            item = kptr_item(ext, 4, raw[i:i + n])
        else:  # %ph: a literal width of 6
            item = kptr_item(ext, 4, raw[:6], wmode=1, width=6)
        seeds.append(ctrl(i % 32, 1) + hdr + literal("<") + item + literal(">"))
    w16 = lambda m, t, words: bytes([m, t]) + b"".join(bytes([w & 0xFF, w >> 8]) for w in words)
    some = [0x2001, 0x0DB8, 0x1234, 0, 0x00FF, 0xABCD, 0xC0A8, 0x010A]
    # %pI6c: a run of zero words in the middle, IPv4-mapped, ISATAP, small words (vc 2)
    seeds.append(ctrl(0, 1) + hdr + kptr_item("I6c", 2, w16(0x3C, 0, some)) + literal("|") +
                 kptr_item("I6c", 2, w16(0x00, 1, some)) + literal("|") +
                 kptr_item("I6c", 2, w16(0x00, 6, some)) + literal("|") +
                 kptr_item("I6c", 3, w16(0x66, 3, some)))
    # NULL with '-' and a width, ERR(-14) with a width and precision, ERR(-4095) behind '*'
    seeds.append(ctrl(7, 1) + hdr + kptr_item("M", 0, flags=1, wmode=1, width=10) + literal("|") +
                 kptr_item("U", 1, bytes([13, 0]), wmode=1, pmode=1, width=20, prec=3) + literal("|") +
                 kptr_item("I4", 1, bytes([0xFE, 0x0F]), wmode=2, width=(-9) & 0xFFFF))
    # %*ph with a negative width, 64 bytes; %pa with a width; structured MAC / IPv4 bytes
    seeds.append(ctrl(3, 1) + hdr + kptr_item("hC", 4, raw[:5], wmode=2, width=(-5) & 0xFFFF) +
                 literal(";") + kptr_item("hN", 5, raw[:64], wmode=2, width=64))
    seeds.append(ctrl(9, 1) + hdr + kptr_item("ad", 4, raw[:8], wmode=1, pmode=1, width=30, prec=2) +
                 literal(" ") + kptr_item("mR", 2, bytes([0, 1, 2, 3, 6, 7])) +
                 literal(" ") + kptr_item("i4", 3, bytes([2, 3, 4, 5])))
    return seeds + vaf_seeds()


def vaf_seeds():
    """%pV: "<%pV>" with a VAF format "[%d|%s|%pM|%pV|%*d]" (vaf_format(): an item byte b < 0xa0 is the
    literal chr(0x20 + b), 0xa0 + i the conversion i of its table: 0 %d, 2 %s, 5 %pM, 6 %pV, 14 %*d),
    then NULL with a width and ERR(-14) with a precision between other conversions"""
    hdr = b"\x00"
    lit = lambda ch: ord(ch) - 0x20
    items = [lit("["), 0xA0, lit("|"), 0xA2, lit("|"), 0xA5, lit("|"), 0xA6, lit("|"), 0xAE, lit("]")]
    vaf = conv_item(KERNEL_KPTR_TABLE, "K", vc=2, value=bytes([KPTR_V, len(items) - 1] + items))
    null = conv_item(KERNEL_KPTR_TABLE, "K", flags=1, wmode=1, width=12, vc=0, value=bytes([KPTR_V]))
    err = conv_item(KERNEL_KPTR_TABLE, "K", pmode=1, prec=3, vc=1, value=bytes([KPTR_V, 13, 0]))
    return [ctrl(5, 1) + hdr + literal("<") + vaf + literal(">"),
            ctrl(11, 1) + hdr + conv_item(KERNEL_KPTR_TABLE, "d", vc=2, value=b"\x02") + literal(" ") + null +
            literal(" ") + err + literal(" ") + vaf]


PARSE_SEEDS = [
    '"%-5d|" int:42',
    '"%.3s" str:"hello"',
    '"%a" double:0x1.8p+1',
    '"%5.1Lf" ldouble:0xap-3 @0,1,5',
    '"%2$s %1$d" int:7 str:"x"',
    '"%ls" wstr:"caf\\u{e9}"',
    '"ab%ncd" n:int',
    '"%p %p" ptr:NULL ptr:0x7ffd1234',
    '"%lc|%c" wint:233 int:65',
    '"%zu %td %jd %lld" size:18446744073709551615 ptrdiff:-1 intmax:-9223372036854775808 llong:1',
    '"\\x00\\t\\n\\"\\\\" @0',
    '"%e %g %f" double:inf double:-nan double:-0x0p+0',
    '"%hhn%hn%ln" n:schar n:short n:long',
    '"%s" str:NULL',
]


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    base = os.path.join(repo, "corpus", "fuzz")
    sets = {
        "fuzz_ref": byte_seeds(ISO_TABLE, 0) + byte_seeds(KERNEL_KPTR_TABLE, 1)[::3],
        "fuzz_iso_diff": byte_seeds(ISO_TABLE, 0),
        "fuzz_kernel_diff": byte_seeds(KERNEL_KPTR_TABLE, 1) + kptr_seeds(),
        "fuzz_planted": byte_seeds(ISO_TABLE, 0)[::2],
        "fuzz_matrix": byte_seeds(ISO_TABLE, 0),  # each implementation of `scnfuzz matrix`, beside ref
        "fuzz_planted_kernel": byte_seeds(KERNEL_KPTR_TABLE, 1)[::2],
        "fuzz_parse": [s.encode() for s in PARSE_SEEDS] + byte_seeds(ISO_TABLE, 0)[::6],
    }
    only = sys.argv[2:]
    for name, seeds in sets.items():
        if only and name not in only:
            continue
        d = os.path.join(base, name)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            if f.startswith("seed-"):
                os.unlink(os.path.join(d, f))
        for i, s in enumerate(seeds):
            with open(os.path.join(d, "seed-%03d" % i), "wb") as fp:
                fp.write(s)
        print("%s: %d seeds" % (d, len(seeds)))


if __name__ == "__main__":
    main()
