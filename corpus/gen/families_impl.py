"""Corpus families added in session 8 (issue 23): what impl/'s surviving mutants showed missing.

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

FAMILIES lists them; families.all_cases() runs them after the others.
"""
from families import I, case
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


FAMILIES = (fam_impl_kernel_values,)
