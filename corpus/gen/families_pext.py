"""The kernel's %p extensions that read the bytes behind the pointer, or print
the pointer itself (kernel column only; the ISO dialect has no such
conversions). Expected outputs from model_kernel.pointer_ext(); the arguments
are ("mem", bytes | None | ("err", -E) | ("vaf", fmt)) (docs/CASE_FORMAT.md). Deterministic:
every random choice uses a random.Random seeded with a fixed string.
"""
import random

from families import case, I


PRINTK = "Documentation/core-api/printk-formats.rst "
PCITE = {
    "kernel.pM": PRINTK + "\"MAC/FDDI addresses\"; lib/vsprintf.c mac_address_string(), string_nocheck(), widen_string()",
    "kernel.pI": PRINTK + "\"IPv4 addresses\", \"IPv6 addresses\"; lib/vsprintf.c ip_addr_string(), ip4_string(), "
                          "ip6_string(), ip6_compressed_string()",
    "kernel.ph": PRINTK + "\"Raw buffer as a hex string\"; lib/vsprintf.c hex_string() (field width = byte count, max 64)",
    "kernel.pa": PRINTK + "\"Physical address types phys_addr_t\", \"DMA address types dma_addr_t\"; "
                          "lib/vsprintf.c address_val(), special_hex_number()",
    "kernel.pU": PRINTK + "\"UUID/GUID addresses\"; lib/vsprintf.c uuid_string()",
    "kernel.pIS": PRINTK + "\"IPv4/IPv6 addresses (generic, with port, flowinfo, scope)\"; lib/vsprintf.c "
                           "ip_addr_string(), ip4_addr_string_sa(), ip6_addr_string_sa() (port, flowinfo, scope "
                           "by number() with the caller's spec)",
    "kernel.pE": PRINTK + "\"Raw buffer as an escaped string\"; lib/vsprintf.c escaped_string(), "
                          "lib/string_helpers.c string_escape_mem(), lib/ctype.c (field width = byte count)",
    "kernel.pe": PRINTK + "\"Error Pointers\"; lib/vsprintf.c pointer() 'e', err_ptr(), lib/errname.c "
                          "(CONFIG_SYMBOLIC_ERRNAME=y)",
    "kernel.p4cc": PRINTK + "\"V4L2 and DRM FourCC code (pixel format)\"; lib/vsprintf.c fourcc_string()",
    "kernel.pb": PRINTK + "\"bitmap and its derivatives such as cpumask and nodemask\"; lib/vsprintf.c "
                          "bitmap_string(), bitmap_list_string() (field width = bit count)",
    "kernel.pr": PRINTK + "\"Struct Resources\"; lib/vsprintf.c resource_string() (struct resource as "
                          "u64 start, u64 end, const char *name, unsigned long flags: include/linux/ioport.h)",
    "kernel.pt": PRINTK + "\"Time and date\"; lib/vsprintf.c time_and_date(), rtc_str(), time64_str(), "
                          "date_str(), time_str(); kernel/time/timeconv.c time64_to_tm()",
    "kernel.pN": PRINTK + "\"Network device features\"; lib/vsprintf.c netdev_bits(), special_hex_number()",
    "kernel.px": PRINTK + "\"Unmodified Addresses\"; lib/vsprintf.c pointer_string() (NULL and ERR_PTR values)",
    "kernel.pK": PRINTK + "\"Kernel Pointers\"; lib/vsprintf.c restricted_pointer() (NULL and ERR_PTR values)",
    "kernel.pV": PRINTK + "\"struct va_format\" (a \"recursive vsnprintf\"); lib/vsprintf.c va_format(): "
                          "check_pointer(), then vsnprintf() of fmt with a va_copy() of *va into the room left; "
                          "the case's va_list reads only zeros (mem:VAF, docs/CASE_FORMAT.md)",
}
PERR = "; NULL/ERR_PTR: lib/vsprintf.c check_pointer(), error_string() (precision 16 unless given)"
PPLAIN = "; plain %p as no_hash_pointers (REF-CHOICE, docs/CHOICES.md)"

# (format spec between '%' and 'p', extra leading int args for '*')
STR_SPECS = [("", []), ("24", []), ("-24", []), (".5", []), ("22.7", []), ("-22.7", []), ("0", []), ("025", []),
             ("*", [I(23)]), ("*", [I(-23)]), ("-*", [I(21)]), (".*", [I(4)]), (".*", [I(-1)]), ("*.*", [I(20), I(9)]),
             (".0", []), ("3", [])]
ERR_SPECS = [("", []), ("10", []), ("-10", []), (".3", []), (".20", []), ("20.10", []), ("*", [I(-12)]), (".*", [I(2)])]
ERR_VALUES = [None, ("err", -14), ("err", -1), ("err", -4095)]


def M(b):
    return ("mem", bytes(b))


def fam_kernel_pext():
    out = []
    rnd = random.Random("kernel-pext")

    def k(cat, f, a, extra="", kind="std", sizes=None):
        out.append(case(cat, f, a, kind, PCITE[cat] + extra, sizes=sizes, iso=False))

    def pf(spec, ext, tail="|"):
        return "%" + spec + "p" + ext + tail

    def errs(cat, exts, nbytes, sample):
        # NULL and error pointers: every ext with the plain spec, specs with one ext
        for e in exts:
            for v in ERR_VALUES[:2]:
                k(cat, pf("", e), [("mem", v)], PERR)
        for spec, pre in ERR_SPECS[1:]:
            for v in ERR_VALUES:
                k(cat, pf(spec, sample), pre + [("mem", v)], PERR)

    def specs(cat, exts, value):
        for e in exts:
            for spec, pre in STR_SPECS:
                k(cat, pf(spec, e), pre + [M(value)])

    # --- MAC/FDDI
    macs = [b"\x00\x1b\x21\x3a\x4f\x5e", b"\x00\x01\x02\x03\x04\x05", b"\xff" * 6, b"\x00" * 6,
            bytes(rnd.randrange(256) for _ in range(6)), b"\xac\xde\x48\x00\x00\x80"]
    mexts = ["M", "MR", "MF", "m", "mR", "mF"]
    for e in mexts:
        for m in macs:
            k("kernel.pM", pf("", e), [M(m)])
    specs("kernel.pM", ["M", "mR"], macs[0])
    for e, spec in [("M", "18"), ("M", "17"), ("M", "-18"), ("MF", ".17"), ("MR", ".16"), ("m", "13"), ("mF", "-13")]:
        k("kernel.pM", pf(spec, e), [M(macs[1])])
    for f in ["%pMx|", "%pMRF|", "%pmFR|", "%pM1|", "%pM:", "[%pM]%pm", "%pMz%d"]:
        a = [M(macs[0])] if f.count("%") == 1 else ([M(macs[0]), M(macs[1])] if "%pm" in f else [M(macs[0]), I(7)])
        k("kernel.pM", f, a, "; vsnprintf() skips the alphanumerics after %p")
    errs("kernel.pM", mexts, 6, "M")
    for m in macs[:3]:
        k("kernel.pM", "MAC=%pM", [M(m)], "; call site format MAC=%pM")
    k("kernel.pM", "MAC=%pM", [("mem", None)], "; call site format MAC=%pM" + PERR)

    # --- IPv4 / IPv6
    ip4s = [b"\xc0\xa8\x01\x0a", b"\x01\x02\x03\x04", b"\x00\x00\x00\x00", b"\xff\xff\xff\xff", b"\x0a\x00\x64\x09",
            bytes(rnd.randrange(256) for _ in range(4))]
    i4exts = ["I4", "i4", "I4h", "I4l", "I4n", "I4b", "i4h", "i4l", "i4n", "i4b"]
    for e in i4exts:
        for a4 in ip4s[:4] if e not in ("I4", "i4") else ip4s:
            k("kernel.pI", pf("", e), [M(a4)])
    specs("kernel.pI", ["I4", "i4h"], ip4s[0])
    for a4 in [ip4s[3], ip4s[0], ip4s[2], ip4s[1]]:
        k("kernel.pI", "%pI4", [M(a4)], "; call site: INET_ADDRSTRLEN (16) buffer", sizes=[16])
    ip6s = [bytes.fromhex(h) for h in [
        "fe800000000000000000000000000001",  # fe80::1
        "00000000000000000000000000000000",  # ::
        "00000000000000000000000000000001",  # ::1
        "00000000000000000000ffffc0a8010a",  # ::ffff:192.168.1.10 (v4-mapped)
        "fe8000000000000000005efec0000201",  # ISATAP
        "fe8000000000000002005efe0a000001",  # ISATAP, u bit
        "20010db8000000000001000000000000",  # two runs: the longer wins
        "20010db8000000010000000000000001",  # equal runs: the first wins
        "20010db8000100020003000400050006",  # one zero word is not compressed
        "20010db800000001000100010001000f",  # single zero word
        "ffffffffffffffffffffffffffffffff",
        "0001000000000000000000000000000f",
        "00000000000000000000000001020304",  # IPv4-compatible: not special
        "0000000000000000000000000000ffff",
        "00010000000000000000000000000000",  # 1::
        "0a0b0c0d0e0f10111213141516171819",
    ]] + [bytes(rnd.randrange(256) for _ in range(16))]
    for e in ["I6", "i6", "I6c", "i6c"]:
        for a6 in ip6s if e == "I6c" else ip6s[::3]:
            k("kernel.pI", pf("", e), [M(a6)])
    specs("kernel.pI", ["I6c"], ip6s[3])
    for spec, pre in STR_SPECS[1:6]:
        k("kernel.pI", pf(spec, "I6"), pre + [M(ip6s[0])])
    for a6 in [ip6s[10], ip6s[0], ip6s[3], ip6s[15]]:
        k("kernel.pI", "%pI6", [M(a6)], "; call site: INET6_ADDRSTRLEN (46) buffer", sizes=[46])
    for f in ["%pI5|", "%pi|", "%pI|", "%pIx|", "%pi7|", "%12pI3|", "%-12pI|", "%.4pi|", "%pI6h|", "%pI4c|"]:
        k("kernel.pI", f, [M(ip6s[0] if "6" in f else ip4s[1])], "; ip_addr_string(): (%pI?) / (%pi?) via error_string()")
    errs("kernel.pI", ["I4", "i4", "I6", "I6c", "i6", "I5"], 4, "I4")
    for f in ["%pI4:%d", "src %pI4 dst %pI4", "%pI6c/%d"]:
        a = [M(ip4s[0]), I(80)] if f == "%pI4:%d" else ([M(ip4s[0]), M(ip4s[1])] if "dst" in f else [M(ip6s[0]), I(64)])
        k("kernel.pI", f, a)

    # --- raw buffers
    buf64 = bytes(rnd.randrange(256) for _ in range(64))
    hexts = ["h", "hC", "hD", "hN"]
    for e in hexts:
        for spec, pre, n in [("", [], 1), ("1", [], 1), ("2", [], 2), ("5", [], 5), ("8", [], 8), ("16", [], 16),
                             ("64", [], 64), ("65", [], 64), ("100", [], 64), ("*", [I(3)], 3), ("*", [I(0)], 0),
                             ("-6", [], 6), ("*", [I(-4)], 4), ("0", [], 1), ("4.2", [], 4), (".9", [], 1)]:
            k("kernel.ph", pf(spec, e), pre + [M(buf64[:n])])
    for f, a in [("%*ph", [I(3), M(b"\x00\x01\xab")]), ("%6phC", [M(macs[0])]), ("%16phN", [M(ip6s[3])]),
                 ("%4phD|%d", [M(ip4s[0]), I(1)]), ("%2phx|", [M(b"\xde\xad")]), ("%ph%ph", [M(b"\x01"), M(b"\x02")])]:
        k("kernel.ph", f, a)
    for e in hexts:
        for v in ERR_VALUES[:2]:
            k("kernel.ph", pf("", e), [("mem", v)], PERR)
    for spec, pre in [("6", []), ("10", []), ("-10", []), (".3", []), ("3.20", []), ("*", [I(0)]), ("0", [])]:
        for v in ERR_VALUES:
            k("kernel.ph", pf(spec, "h"), pre + [("mem", v)], PERR + ("; width 0: nothing, before check_pointer()" if pre == [I(0)] else ""))

    # --- phys_addr_t / dma_addr_t
    avals = [0, 1, 0x12345678, 0xffffffffffffffff, 0xdeadbeef00001000, 0x00000000fee00000, rnd.getrandbits(64)]
    aexts = ["a", "ap", "ad"]
    for e in aexts:
        for v in avals:
            k("kernel.pa", pf("", e), [M(v.to_bytes(8, "little"))])
    for e in ["a", "ad"]:
        for spec, pre in STR_SPECS:
            k("kernel.pa", pf(spec, e), pre + [M(avals[2].to_bytes(8, "little"))], "; width and precision ignored")
    for f in ["%pax|", "%padx|", "%papd|"]:
        k("kernel.pa", f, [M(avals[4].to_bytes(8, "little"))])
    errs("kernel.pa", aexts, 8, "ad")
    for v in [0x00000000ffe01000, 0x1234]:
        k("kernel.pa", "trb: V=%p, P=0x%pad", [("ptr", None), M(v.to_bytes(8, "little"))],
          "; call site (cdns2): %pad prints its own 0x" + PPLAIN, kind="impl")
        k("kernel.pa", "trb: V=%p, P=0x%pad", [("ptr", 0xffff888000001000), M(v.to_bytes(8, "little"))],
          "; call site (cdns2): %pad prints its own 0x" + PPLAIN, kind="impl")
    k("kernel.pa", "trb: V=%p, P=0x%pad", [("ptr", None), ("mem", None)],
      "; call site (cdns2)" + PERR + PPLAIN, kind="impl")

    # --- UUID/GUID
    uuids = [bytes(range(16)), bytes.fromhex("00112233445566778899aabbccddeeff"), b"\x00" * 16, b"\xff" * 16,
             bytes(rnd.randrange(256) for _ in range(16))]
    uexts = ["U", "Ub", "UB", "Ul", "UL"]
    for e in uexts:
        for u in uuids:
            k("kernel.pU", pf("", e), [M(u)])
    specs("kernel.pU", ["Ub", "UL"], uuids[1])
    for f in ["%pUx|", "%pUbL|", "%pULb|", "%pU%pUl"]:
        k("kernel.pU", f, [M(uuids[1])] * f.count("%"))
    errs("kernel.pU", uexts, 16, "UB")
    return out



# ---------------------------------------------------------------------------
# the remaining extensions: sockaddr, escaped strings, error pointers, FourCC,
# bitmaps, struct resource, time and date, netdev features, and %px / %pK of
# NULL and ERR_PTR values (their outputs do not depend on an address)

def _kcase(out, cat, f, a, extra="", kind="std", sizes=None):
    out.append(case(cat, f, a, kind, PCITE[cat] + extra, sizes=sizes, iso=False))


def _null_err(out, cat, fmts, specs=ERR_SPECS, extra=PERR):
    """NULL and ERR_PTR arguments: each format plain, the specs on the first;
    fmts are (ext, leading int args)."""
    for ext, pre in fmts:
        for v in ERR_VALUES[:2]:
            _kcase(out, cat, "%p" + ext + "|", pre + [("mem", v)], extra)
    ext, pre = fmts[0]
    for spec, spre in specs[1:]:
        for v in ERR_VALUES:
            _kcase(out, cat, "%" + spec + "p" + ext + "|", spre + pre + [("mem", v)], extra)


def sockaddr_in(addr, port):
    """struct sockaddr_in, x86-64: sin_family AF_INET (host order), sin_port and
    sin_addr in network order, eight bytes of sin_zero."""
    return (2).to_bytes(2, "little") + port.to_bytes(2, "big") + bytes(addr) + bytes(8)


def sockaddr_in6(addr, port, flowinfo, scope):
    """struct sockaddr_in6, x86-64: sin6_family AF_INET6 (host order), sin6_port,
    sin6_flowinfo and sin6_addr in network order, sin6_scope_id in host order."""
    return ((10).to_bytes(2, "little") + port.to_bytes(2, "big") + flowinfo.to_bytes(4, "big") +
            bytes(addr) + scope.to_bytes(4, "little"))


# specs for formats whose port/flowinfo/scope take the spec too (kept within the
# kernel's stack buffer: the model refuses a case that would overflow it)
NUM_SPECS = [("", []), ("8", []), ("-8", []), ("08", []), (".3", []), (".6", []), ("12.4", []), ("0", []),
             ("*", [I(-7)]), (".*", [I(2)]), ("-*", [I(9)]), ("+", []), (" ", []), ("#", []), ("-06", [])]


def fam_kernel_psockaddr():
    out = []
    rnd = random.Random("kernel-psockaddr")
    k = lambda f, a, extra="", sizes=None: _kcase(out, "kernel.pIS", f, a, extra, sizes=sizes)
    v4 = [sockaddr_in(b"\xc0\xa8\x01\x0a", 80), sockaddr_in(b"\x01\x02\x03\x04", 12345),
          sockaddr_in(b"\x00\x00\x00\x00", 0), sockaddr_in(b"\xff\xff\xff\xff", 65535),
          sockaddr_in(b"\x0a\x00\x64\x09", 443),
          sockaddr_in(bytes(rnd.randrange(256) for _ in range(4)), rnd.randrange(65536))]
    for e in ["IS", "iS", "ISp", "iSp", "ISpc", "ISh", "ISl", "ISn", "ISb", "iSh", "iSpl", "ISpb"]:
        for sa in v4 if e in ("IS", "ISp", "iSp") else v4[:3]:
            k("%p" + e + "|", [("mem", sa)])
    for f in ["%pISfsc|", "%pIShl|", "%pISlh|", "%pISph1l|", "%pISxp|", "%pISpc%d"]:
        # f s c are IPv6 letters (ignored); the last of h l n b wins; a digit ends the letters
        k(f, [("mem", v4[1])] + ([I(7)] if "%d" in f else []), "; vsnprintf() skips the alphanumerics after %p")
    for spec, pre in STR_SPECS:
        k("%" + spec + "pISc|", pre + [("mem", v4[0])])
    for spec, pre in NUM_SPECS:
        k("%" + spec + "pISp|", pre + [("mem", v4[1])], "; the port by number() with the spec")
    k("%pISp", [("mem", v4[3])], "; call site: sizeof(\"255.255.255.255:65535\") buffer", sizes=[22])

    v6 = [sockaddr_in6(bytes.fromhex("fe800000000000000000000000000001"), 8080, 0x12345678, 2),
          sockaddr_in6(bytes.fromhex("00010002000300040005000600070008"), 12345, 123456789, 1234567890),
          sockaddr_in6(bytes(16), 0, 0, 0),
          sockaddr_in6(bytes.fromhex("00000000000000000000ffffc0a8010a"), 443, 0xffffffff, 0xffffffff),
          sockaddr_in6(bytes.fromhex("fe8000000000000002005efe0a000001"), 1, 0xf0000001, 7),
          sockaddr_in6(bytes(rnd.randrange(256) for _ in range(16)), rnd.randrange(65536), rnd.getrandbits(32),
                       rnd.getrandbits(32))]
    for e in ["IS", "iS", "ISc", "ISp", "ISpc", "ISf", "ISfc", "ISs", "ISsc", "ISpfc", "ISpfsc", "iSpfs"]:
        for sa in v6 if e in ("ISc", "ISpfsc") else v6[:4]:
            k("%p" + e + "|", [("mem", sa)])
    for f in ["%piSc|", "%pIScp|", "%pISscfp|", "%pISph|", "%pISpcl|", "%pISp4c|", "%pISpfsc/%d"]:
        # iS never compresses; the order of the letters does not matter; h l n b are IPv4 letters;
        # a digit ends the letters
        k(f, [("mem", v6[1])] + ([I(64)] if "%d" in f else []), "; vsnprintf() skips the alphanumerics after %p")
    for spec, pre in STR_SPECS:
        k("%" + spec + "pISc|", pre + [("mem", v6[0])])
    for spec, pre in NUM_SPECS:
        k("%" + spec + "pISpfsc|", pre + [("mem", v6[1])], "; port, flowinfo and scope by number() with the spec")
    k("%pISpfsc", [("mem", v6[1])], "; call site buffer of 64", sizes=[64])

    # a family other than AF_INET / AF_INET6: "(einval)" by error_string()
    for fam in [0, 1, 0x0200, 0x0a00, 0xffff]:
        k("%pISpc|", [("mem", fam.to_bytes(2, "little") + v4[1][2:])], "; unknown sa_family: (einval)")
    for spec, pre in ERR_SPECS[1:]:
        k("%" + spec + "pISpc|", pre + [("mem", bytes(16))], "; unknown sa_family: (einval)" + PERR)
    _null_err(out, "kernel.pIS", [("ISpc", []), ("iS", []), ("ISpfsc", [])])
    return out


# buffers for %pE: the printk-formats.rst example, then one byte of each class
ESC_DOC = bytes.fromhex("1b62205c430722900d5d")
ESC_MIX = bytes([0x00, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x20, 0x22, 0x27, 0x30, 0x41, 0x5c,
                 0x61, 0x7e, 0x7f, 0x80, 0x9f, 0xa0, 0xa9, 0xe9, 0xff])


def fam_kernel_pescape():
    out = []
    rnd = random.Random("kernel-pescape")
    k = lambda f, a, extra="": _kcase(out, "kernel.pE", f, a, extra)
    rand = bytes(rnd.randrange(256) for _ in range(20))
    for e in ["E", "Ea", "Ec", "Eh", "En", "Eo", "Ep", "Es", "Ehp", "Eap", "Ecs", "Esp", "Enp", "Eho", "Eoh",
              "Ecsn", "Eapo", "Ehpn", "Ehcsp"]:
        for buf in [ESC_DOC, ESC_MIX] + ([rand] if e in ("E", "Eh", "Eo", "Ea") else []):
            k("%*p" + e + "|", [I(len(buf)), ("mem", buf)])
    # the width is the byte count: none is 1, 0 is nothing, negative '*' counts too
    for spec, pre, n in [("", [], 1), ("1", [], 1), ("3", [], 3), ("-4", [], 4), ("*", [I(-5)], 5),
                         ("*", [I(0)], 0), ("0", [], 1), (".2", [], 1), ("6.1", [], 6), ("-*", [I(7)], 7),
                         ("024", [], 24)]:
        for e in ["E", "Eh"]:
            k("%" + spec + "p" + e + "|", pre + [("mem", ESC_MIX[:n])], "; width = bytes, not padding")
    for f in ["%*pEx|", "%*pEhx|", "%*pE1|", "%*pEan|"]:
        k(f, [I(10), ("mem", ESC_DOC)], "; the flag letters end at the first other one")
    k("%*pE|%*pEh", [I(3), ("mem", b"a\nb"), I(3), ("mem", b"a\nb")])
    k("name=\"%*pE\"", [I(11), ("mem", b"my\tssid\x00\x01\"\xff")], "; call site: SSID as in net/wireless")
    _null_err(out, "kernel.pE", [("E", []), ("Eh", [])],
              specs=ERR_SPECS + [("*", [I(0)])], extra=PERR + "; width 0: nothing, before check_pointer()")
    return out


def fam_kernel_perrptr():
    out = []
    k = lambda f, a, extra="": _kcase(out, "kernel.pe", f, a, extra)
    for e in [1, 2, 5, 11, 12, 13, 14, 22, 28, 35, 40, 95, 110, 125, 133, 512, 516, 517, 519, 524, 530]:
        k("%pe|", [("mem", ("err", -e))])
    for e in [41, 58, 134, 300, 511, 520, 531, 1000, 4095]:
        k("%pe|", [("mem", ("err", -e))], "; no name: -E by number()")
    specs = [("12", []), ("-12", []), (".3", []), (".0", []), ("012", []), ("+", []), ("*", [I(-9)]),
             ("3", []), ("10.2", []), ("#", [])]
    for spec, pre in specs:
        k("%" + spec + "pe|", pre + [("mem", ("err", -28))], "; string_nocheck(): no error_string() limit")
    for spec, pre in specs + [("08", []), (".5", []), ("-08", []), (" ", [])]:
        k("%" + spec + "pe|", pre + [("mem", ("err", -1000))], "; no name: number() with SIGN and the spec")
    k("%pe|", [("mem", ("err", -516))], "; a name longer than 16 characters")
    for spec, pre in [("", []), ("20", []), ("-20", []), ("#", []), ("#20", []), (".3", []), ("5", [])]:
        k("%" + spec + "pe|", pre + [("mem", None)], "; NULL is not IS_ERR(): default_pointer(), unhashed for NULL")
    for f in ["%pex|", "%pe%pe", "err=%pe (%d)"]:
        a = [("mem", ("err", -12))] + ([("mem", ("err", -2))] if f == "%pe%pe" else [])
        a += [I(-12)] if "%d" in f else []
        k(f, a)
    return out


def fam_kernel_pfourcc():
    out = []
    k = lambda f, a, extra="": _kcase(out, "kernel.p4cc", f, a, extra)
    codes = [0x32314742, 0x20303159, 0xb231564e, 0, 0xffffffff, 0x80000000, 0x7f1f0a01, 0xa0c1e9ff, 0x34325258,
             0x56595559]
    for v in codes:
        k("%p4cc|", [("mem", v.to_bytes(4, "little"))])
    for spec, pre in STR_SPECS:
        k("%" + spec + "p4cc|", pre + [("mem", codes[0].to_bytes(4, "little"))], "; string() with the spec")
    for f in ["%p4|", "%p4c|", "%p4cd|", "%p4x|", "%p4C|", "%p4Cc|", "%12p4c|", "%p4ccx|"]:
        k(f, [("mem", codes[1].to_bytes(4, "little"))], "; not 4cc: (%p4?), before check_pointer()")
    k("fmt %p4cc, size %ux%u", [("mem", codes[2].to_bytes(4, "little")), ("uint", 1920), ("uint", 1080)],
      "; call site format (drm)")
    _null_err(out, "kernel.p4cc", [("4cc", [])])
    for v in ERR_VALUES[:2]:
        k("%p4c|", [("mem", v)], "; (%p4?) before check_pointer()")
    return out


def fam_kernel_pbitmap():
    out = []
    rnd = random.Random("kernel-pbitmap")
    k = lambda f, a, extra="": _kcase(out, "kernel.pb", f, a, extra)
    words = [rnd.getrandbits(64) for _ in range(4)]
    mem = lambda nbits: ("mem", b"".join(w.to_bytes(8, "little") for w in words[:max(1, (nbits + 63) // 64)]))
    for n in [1, 4, 11, 12, 16, 31, 32, 33, 63, 64, 65, 100, 128, 129, 200, 256]:
        for e in ["b", "bl"]:
            k("%*p" + e + "|", [I(n), mem(n)], "; bits at or above the width are not shown")
    for bits, n in [(0b11101111001, 16), (0, 12), ((1 << 40) - 1, 40), (0x8000000000000001, 64), (0x5555, 16),
                    (1 << 31, 32), (1 << 32, 33)]:
        for e in ["b", "bl"]:
            k("%*p" + e + "|", [I(n), ("mem", bits.to_bytes(8, "little"))])
    for spec, pre, n in [("", [], 0), ("0", [], 0), ("*", [I(0)], 0), ("*", [I(-12)], 12), ("-12", [], 12),
                         ("12", [], 12), ("12.2", [], 12), (".5", [], 0), ("012", [], 12), ("#12", [], 12)]:
        for e in ["b", "bl"]:
            k("%" + spec + "p" + e + "|", pre + [mem(n)], "; width = bits (none: 0), never padding")
    for f in ["%*pbx|", "%*pblx|", "%*pbL|"]:
        k(f, [I(20), mem(20)], "; vsnprintf() skips the alphanumerics after %p")
    k("cpus %*pbl on node %d", [I(72), mem(72), I(0)], "; call site: cpumask_pr_args()")
    _null_err(out, "kernel.pb", [("b", []), ("bl", [])],
              specs=ERR_SPECS + [("*", [I(64)]), ("*", [I(0)])])
    return out


def resource(start, end, flags):
    """struct resource as Linux 6.1 lays it out on x86-64 (include/linux/ioport.h),
    up to what vsprintf.c reads: u64 start, u64 end, const char *name (NULL),
    unsigned long flags."""
    return ("mem", start.to_bytes(8, "little") + end.to_bytes(8, "little") + bytes(8) +
            flags.to_bytes(8, "little"))


def fam_kernel_presource():
    out = []
    k = lambda f, a, extra="": _kcase(out, "kernel.pr", f, a, extra)
    U64 = (1 << 64) - 1
    res = [resource(0x60000000, 0x6fffffff, 0x2200),            # mem pref (the printk-formats.rst example)
           resource(0x3f8, 0x3ff, 0x100),                       # io
           resource(0x80, 0x80, 0x100),                         # io, one port
           resource(9, 9, 0x400),                               # irq
           resource(4, 7, 0x800),                               # dma
           resource(0, 0xff, 0x201000),                         # bus window
           resource(0xfe0000000000, 0xfe00ffffffff, 0x10302200),  # mem 64bit pref window disabled
           resource(0, 0xfff, 0x20000200),                      # mem unset: R prints the size
           resource(0, U64, 0x20000100),                        # io unset, size wraps to 0
           resource(0x1000, 0x1fff, 0),                         # no type: "???", never decoded
           resource(0x10, 0x1f, 0x300),                         # IORESOURCE_REG: the IO bit first
           resource(0, 0, 0x80000400),                          # irq 0, busy (not decoded)
           resource(0xfee00000, 0xfee00fff, 0x11000200)]        # mem, sysram disabled
    for e in ["r", "R"]:
        for r in res:
            k("%p" + e + "|", [r])
    for spec, pre in STR_SPECS:
        k("%" + spec + "pR|", pre + [res[0]], "; string_nocheck() with the spec")
    for spec, pre in [("60", []), ("-50", []), (".12", [])]:
        k("%" + spec + "pr|", pre + [res[1]], "; string_nocheck() with the spec")
    for f in ["%pRx|", "%prR|", "%pRr|"]:
        k(f, [res[0]], "; only the first letter counts")
    k("pci 0000:00:02.0: reg 0x10: %pR", [res[6]], "; call site format (PCI)")
    _null_err(out, "kernel.pr", [("r", []), ("R", [])])
    return out


def rtc_time(sec, mn, hour, mday, mon, year, wday=0, yday=0, isdst=0):
    """struct rtc_time: nine ints, little-endian."""
    return ("mem", b"".join(v.to_bytes(4, "little", signed=True)
                            for v in (sec, mn, hour, mday, mon, year, wday, yday, isdst)))


def time64(t):
    return ("mem", t.to_bytes(8, "little", signed=True))


def fam_kernel_ptime():
    out = []
    k = lambda f, a, extra="": _kcase(out, "kernel.pt", f, a, extra)
    tms = [rtc_time(20, 13, 22, 14, 10, 123, 2, 317), rtc_time(0, 0, 0, 1, 0, 70), rtc_time(59, 59, 23, 31, 11, 199),
           rtc_time(0, 0, 12, 29, 1, 100)]
    odd = [rtc_time(75, 99, 25, 0, 12, -1900), rtc_time(5, -1, 3, 4, 5, 6), rtc_time(1, 2, 3, 4, 5, 8100),
           rtc_time(0, 0, 0, 0, -1, -1901)]
    rexts = ["ptR", "ptRs", "ptRd", "ptRt", "ptRr", "ptRdr", "ptRtr", "ptRrs", "ptRsr", "ptRds", "ptRts", "ptRdt"]
    for e in rexts:
        for tm in tms if e in ("ptR", "ptRr") else tms[:1]:
            k("%" + e + "|", [tm])
    for tm in odd:
        for e in ["ptR", "ptRr"]:
            k("%" + e + "|", [tm], "; fields printed as they are; a negative int by number() as unsigned long long")
    times = [0, 1700000000, -1, 86399, 951782400, 951868799, 4107542400, 2147483647, 2147483648, -2208988800,
             253402300799, 253402300800, -62167219200, -62167219201, 1234567890, 4102444799]
    for e in ["ptT", "ptTr", "ptTs", "ptTd", "ptTt"]:
        for t in times if e in ("ptT", "ptTr") else times[:3]:
            k("%" + e + "|", [time64(t)], "; proleptic Gregorian, UTC")
    for e in ["ptTrs", "ptTdr", "ptTtr", "ptTsr", "ptTdt"]:
        k("%" + e + "|", [time64(times[1])])
    for spec, pre in [("30", []), ("-30", []), (".5", []), ("*", [I(25)]), ("05", [])]:
        for tm in [tms[0], time64(times[1])]:
            k("%" + spec + "pt" + ("R" if tm is tms[0] else "T") + "|", pre + [tm], "; width and precision not used")
    for f in ["%pt|", "%ptx|", "%pt1|", "%ptr|", "%12pt|", "%-12ptd|"]:
        k(f, [("mem", bytes(8))], "; neither R nor T: (%pt?) by error_string()")
    k("%ptRx|", [tms[0]], "; vsnprintf() skips the alphanumerics after %p")
    k("rtc: %ptR, epoch %ptTd", [tms[0], time64(times[1])], "; call site format (rtc)")
    _null_err(out, "kernel.pt", [("tR", []), ("tT", []), ("tTs", []), ("tx", [])])
    return out


def fam_kernel_pnetdev():
    out = []
    k = lambda f, a, extra="": _kcase(out, "kernel.pN", f, a, extra)
    vals = [0xc000, 0, (1 << 64) - 1, 1 << 63, 0x0000040000010000, random.Random("kernel-pnetdev").getrandbits(64)]
    for v in vals:
        k("%pNF|", [("mem", v.to_bytes(8, "little"))])
    for spec, pre in STR_SPECS[1:9]:
        k("%" + spec + "pNF|", pre + [("mem", vals[0].to_bytes(8, "little"))],
          "; special_hex_number(): the spec not used")
    for f in ["%pN|", "%pNx|", "%pNf|", "%12pN|", "%pNFx|"]:
        k(f, [("mem", vals[4].to_bytes(8, "little"))], "; N then not F: (%pN?) by error_string()" if "NF" not in f else
          "; vsnprintf() skips the alphanumerics after %p")
    k("features %pNF changed", [("mem", vals[4].to_bytes(8, "little"))], "; call site format (netdev)")
    _null_err(out, "kernel.pN", [("NF", []), ("N", [])])
    return out


def fam_kernel_pvalue():
    """%px and %pK with NULL and ERR_PTR values: the pointer itself, unhashed."""
    out = []
    specs = [("", []), ("20", []), ("-20", []), ("#", []), ("#20", []), ("020", []), (".20", []), ("5", []),
             ("*", [I(-18)]), ("+", [])]
    for v in ERR_VALUES:
        for spec, pre in specs:
            _kcase(out, "kernel.px", "%" + spec + "px|", pre + [("mem", v)])
    kext = "; kptr_restrict 0 (its initial value): default_pointer(); NULL and ERR_PTR values unhashed"
    for v in ERR_VALUES:
        for spec, pre in specs[:6]:
            # an ERR_PTR under kptr_restrict 2 (or 1 without CAP_SYSLOG) prints as NULL: the sysctl decides
            _kcase(out, "kernel.pK", "%" + spec + "pK|", pre + [("mem", v)], kext,
                   kind="std" if v is None else "impl")
    return out


def VAF(fmt):
    return ("mem", ("vaf", fmt.encode("latin-1")))


def fam_kernel_pvaformat():
    """%pV: the inner format printed in place, every argument it reads 0 or
    NULL (mem:VAF); the outer width and precision only for NULL / ERR_PTR."""
    out = []
    k = lambda f, a, extra="", sizes=None: _kcase(out, "kernel.pV", f, a, extra, sizes=sizes)
    inner = ["", "plain text", "100%% sure", "a%db", "%d|%i|%u|%x|%X|%o", "%5d|%-5x|%08x|%#x|%#o|%+d|% d|%.3d",
             "%hhd %hx %ld %lld %zu %zd %td %llx", "[%*d|%-*s|%.*s|%*.*x]", "%s|%10s|%-8s|%.2s|%.0s",
             "%p|%px|%20p", "%pM|%pI4|%pI6c|%ph|%pU|%pa|%pE", "%pe|%pK|%pb|%pR|%ptR|%p4cc|%pNF|%pISpc",
             "%20pM|%-12pI4|%.3pU", "x%cy", "%pV", "[%pV|%12pV|%-9pV|%.2pV]"]
    for f in inner:
        k("<%pV>", [VAF(f)])
    for spec, pre in STR_SPECS[1:9]:
        k("<%" + spec + "pV>", pre + [VAF("abc%d")], "; the width and precision are not used")
    k("<%pV>", [VAF("a%fb%d")], "; an invalid conversion stops the nested vsnprintf() only")
    k("<%pV>", [VAF("tail %")], "; a '%' at the end of the nested format")
    k("<%pV>", [VAF("a%nb")], "; %n is invalid: the nested vsnprintf() stops")
    k("<%pVx|%pV3>", [VAF("%d"), VAF("%s")], "; vsnprintf() skips the alphanumerics after %pV")
    k("%s: %pV\n", [("str", b"eth0"), VAF("link %s, %d Mbps")], "; dev_printk()-style call")
    k("%d %pV %x", [I(-7), VAF("[%d]"), ("uint", 255)], "; the outer arguments around the nested ones")
    k("%pV%pV%pV", [VAF("one "), ("mem", None), VAF("three")])
    k("<%pV>", [VAF("a\0%d")], "; fmt ends at its first NUL")
    k("[%pV]", [VAF("forty-two bytes of text %d and more text!")], "; cut inside the nested output",
      sizes=[0, 1, 2, 10, 20, 43, 44, 45])
    _null_err(out, "kernel.pV", [("V", [])])
    return out


FAMILIES = (fam_kernel_pext, fam_kernel_psockaddr, fam_kernel_pescape, fam_kernel_perrptr, fam_kernel_pfourcc,
            fam_kernel_pbitmap, fam_kernel_presource, fam_kernel_ptime, fam_kernel_pnetdev, fam_kernel_pvalue,
            fam_kernel_pvaformat)
