"""Model of the Linux kernel's vsnprintf (lib/vsprintf.c of Linux 6.1), the
LINUX_KERNEL dialect: written from reading format_decode(), number(),
string(), widen_string(), pointer(), pointer_string(), set_field_width(),
set_precision() and Documentation/core-api/printk-formats.rst. No kernel code
is copied; this is a behavioural description in Python.

Returns the full output, or None when the kernel's behaviour for the case is
not defined (argument types the kernel would read differently, %p extensions,
values outside the ranges the model covers).
"""

SIGN, LEFT, PLUS, SPACE, ZEROPAD, SMALL, SPECIAL = 1, 2, 4, 8, 16, 32, 64
FIELD_WIDTH_MAX = (1 << 23) - 1
PRECISION_MAX = (1 << 15) - 1

# arg TYPEs the kernel's va_arg() of each C type may read (same size and
# class on x86-64; the corpus only passes values valid in both).
READS = {
    "int": ("int", "uint"),
    "uint": ("int", "uint"),
    "long": ("long", "ulong", "llong", "ullong", "intmax", "uintmax", "ssize", "size", "ptrdiff"),
    "ptr": ("ptr",),
    "str": ("str",),
    "mem": ("mem",),
}


class NotDefined(Exception):
    pass


def _num(v, bits, signed):
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def number(num, base, flags, field_width, precision):
    """lib/vsprintf.c number(): num is the unsigned long long value."""
    out = bytearray()
    locase = flags & SMALL
    need_pfx = (flags & SPECIAL) and base != 10
    is_zero = num == 0
    if flags & LEFT:
        flags &= ~ZEROPAD
    sign = b""
    if flags & SIGN:
        if num >> 63:
            sign = b"-"
            num = (-num) & ((1 << 64) - 1)
            field_width -= 1
        elif flags & PLUS:
            sign = b"+"
            field_width -= 1
        elif flags & SPACE:
            sign = b" "
            field_width -= 1
    if need_pfx:
        if base == 16:
            field_width -= 2
        elif not is_zero:
            field_width -= 1
    # digits: always at least one, even with precision 0
    ds = ""
    n = num
    while True:
        ds = "0123456789ABCDEF"[n % base] + ds
        n //= base
        if not n:
            break
    if locase:
        ds = ds.lower()
    i = len(ds)
    if i > precision:
        precision = i
    field_width -= precision
    if not (flags & (ZEROPAD | LEFT)) and field_width > 0:
        out += b" " * field_width
        field_width = 0
    out += sign
    if need_pfx:
        if base == 16 or not is_zero:
            out += b"0"
        if base == 16:
            out += b"x" if locase else b"X"
    if not (flags & LEFT) and field_width > 0:
        out += (b"0" if flags & ZEROPAD else b" ") * field_width
        field_width = 0
    if precision > i:
        out += b"0" * (precision - i)
    out += ds.encode()
    if field_width > 0:
        out += b" " * field_width
    return bytes(out)


def widen(body, flags, field_width):
    if len(body) >= field_width:
        return body
    sp = b" " * (field_width - len(body))
    return body + sp if flags & LEFT else sp + body


STOPPED = [False]   # set when the last call stopped at an invalid conversion


def format_kernel(fmt: bytes, args):
    STOPPED[0] = False
    args = list(args)
    ai = 0

    def va_arg(ctype):
        nonlocal ai
        if ai >= len(args):
            raise NotDefined("missing argument")
        t, v = args[ai]
        ai += 1
        if t not in READS[ctype]:
            raise NotDefined("kernel reads %s, argument is %s" % (ctype, t))
        return t, v

    out = bytearray()
    i = 0
    n = len(fmt)
    while i < n:
        c = fmt[i]
        if c != 0x25:
            out.append(c); i += 1; continue
        i += 1
        flags = 0
        while i < n and chr(fmt[i]) in "-+ #0":
            flags |= {"-": LEFT, "+": PLUS, " ": SPACE, "#": SPECIAL, "0": ZEROPAD}[chr(fmt[i])]
            i += 1
        field_width = -1
        if i < n and 0x30 <= fmt[i] <= 0x39:
            j = i
            while j < n and 0x30 <= fmt[j] <= 0x39:
                j += 1
            field_width = int(fmt[i:j]); i = j
            if field_width > FIELD_WIDTH_MAX:
                raise NotDefined("literal width beyond the 24-bit field")
        elif i < n and fmt[i] == 0x2A:
            i += 1
            _, w = va_arg("int")
            w = _num(w, 32, True)
            if not -FIELD_WIDTH_MAX <= w <= FIELD_WIDTH_MAX:      # set_field_width() clamp
                w = max(-FIELD_WIDTH_MAX, min(FIELD_WIDTH_MAX, w))
            field_width = w
            if field_width < 0:                                   # format_decode()
                field_width = -field_width
                flags |= LEFT
        precision = -1
        if i < n and fmt[i] == 0x2E:
            i += 1
            if i < n and 0x30 <= fmt[i] <= 0x39:
                j = i
                while j < n and 0x30 <= fmt[j] <= 0x39:
                    j += 1
                precision = int(fmt[i:j]); i = j
                if precision > PRECISION_MAX:
                    raise NotDefined("literal precision beyond the 16-bit field")
            elif i < n and fmt[i] == 0x2A:
                i += 1
                _, p = va_arg("int")
                p = _num(p, 32, True)
                if not -(1 << 15) <= p <= PRECISION_MAX:          # set_precision() clamp
                    p = max(0, min(PRECISION_MAX, p))
                precision = max(p, 0)                             # format_decode(): < 0 -> 0
            # '.' followed by anything else: precision stays -1
        qual = ""
        if i < n and chr(fmt[i]) in "hlLzt":
            qual = chr(fmt[i]); i += 1
            if i < n and chr(fmt[i]) == qual and qual in "lh":
                qual = "ll" if qual == "l" else "hh"; i += 1
        conv = chr(fmt[i]) if i < n else "\0"
        i += 1
        if conv == "c":
            _, v = va_arg("int")
            body = bytes([v & 0xFF])
            out += widen(body, flags & LEFT, max(field_width, 1))
        elif conv == "s":
            _, v = va_arg("str")
            if v is None:
                # check_pointer() -> error_string(): "(null)", precision -1 -> 16
                s = b"(null)"
                lim = 16 if precision == -1 else precision
            else:
                s = v.split(b"\0")[0]
                lim = precision
            if lim >= 0:
                s = s[:lim]
            out += widen(s, flags & LEFT, field_width)
        elif conv == "p":
            ext = fmt[i:i + 1]
            if ext not in (b"", b"x") and ext.isalnum():
                j = i
                while j < n and fmt[j:j + 1].isalnum():
                    j += 1
                _, v = va_arg("mem")
                out += pointer_ext(fmt[i:j], v, flags, field_width, precision)
                i = j
                continue
            _, v = va_arg("ptr")
            if ext == b"" or not ext.isalnum():
                pass  # plain %p: REF-CHOICE, as with no_hash_pointers
            # pointer(): 'x' -> pointer_string(); default -> default_pointer()
            while i < n and chr(fmt[i]).isalnum():
                i += 1
            val = 0 if v is None else v
            fw = field_width
            fl = flags | SMALL
            if fw == -1:
                fw = 16
                fl |= ZEROPAD
            out += number(val, 16, fl, fw, precision)
        elif conv == "%":
            out += b"%"
        elif conv in "diouxX":
            base = {"o": 8, "x": 16, "X": 16}.get(conv, 10)
            if conv == "x":
                flags |= SMALL
            signed = conv in "di"
            if signed:
                flags |= SIGN
            if qual in ("ll", "L"):
                _, v = va_arg("long"); num = v
            elif qual in ("l", "z", "t"):
                _, v = va_arg("long"); num = v
            elif qual == "hh":
                _, v = va_arg("int"); num = _num(v, 8, signed)
            elif qual == "h":
                _, v = va_arg("int"); num = _num(v, 16, signed)
            else:
                t, v = va_arg("int")
                num = _num(v, 32, signed) if signed else v & 0xFFFFFFFF
            num &= (1 << 64) - 1
            out += number(num, base, flags, field_width, precision)
        else:
            # format_decode(): any other conversion (floats, n, b, j, w, $, ...)
            # is FORMAT_TYPE_INVALID; vsnprintf() stops formatting there.
            STOPPED[0] = True
            break
    return bytes(out)


def kernel_expected(fmt, args):
    try:
        return format_kernel(fmt, args)
    except NotDefined:
        return None


# ---------------------------------------------------------------------------
# %p extensions that read the bytes behind the pointer (Linux 6.1
# lib/vsprintf.c pointer() and its helpers, Documentation/core-api/
# printk-formats.rst). The argument is ("mem", bytes | None | ("err", -E)).
# Each function gets the letters after "%p" (ext), the spec (flags,
# field_width, precision) and the argument value; it returns the bytes the
# kernel writes for that conversion. x86-64: little-endian, 64-bit
# phys_addr_t/dma_addr_t, PAGE_SIZE 4096, MAX_ERRNO 4095.

PAGE_SIZE, MAX_ERRNO = 4096, 4095
HEX = "0123456789abcdef"


def string_nocheck(s, flags, field_width, precision):
    """string_nocheck(): at most precision bytes (-1: all), then widen_string()."""
    if precision >= 0:
        s = s[:precision]
    return widen(s, flags & LEFT, field_width)


def error_string(s, flags, field_width, precision):
    """error_string(): precision -1 becomes 2 * sizeof(void *) = 16."""
    return string_nocheck(s, flags, field_width, 16 if precision == -1 else precision)


def check_pointer(v, flags, field_width, precision):
    """check_pointer(): "(null)" for NULL, "(efault)" below PAGE_SIZE or for
    IS_ERR_VALUE(); None when the pointer may be read."""
    if v is None:
        return error_string(b"(null)", flags, field_width, precision)
    if isinstance(v, tuple):
        assert v[0] == "err" and -MAX_ERRNO <= v[1] <= -1
        return error_string(b"(efault)", flags, field_width, precision)
    return None


def _hb(b, upper=False):
    s = HEX[b >> 4] + HEX[b & 15]
    return s.upper() if upper else s


def mac_address_string(ext, mem, flags, fw, prec):
    """%pM %pMR %pMF %pm %pmR %pmF (printk-formats.rst "MAC/FDDI addresses")."""
    sep = "-" if ext[1:2] == b"F" else ":"
    order = range(5, -1, -1) if ext[1:2] == b"R" else range(6)
    parts = [_hb(mem[i]) for i in order]
    s = (sep if ext[:1] == b"M" else "").join(parts)
    return string_nocheck(s.encode(), flags, fw, prec)


def ip4_string(addr, ext):
    """ip4_string(): ext[0] 'i' = three digits per byte; ext[2] 'h' (host order,
    little-endian: reversed) / 'l' (reversed) / 'n' 'b' or anything (as given)."""
    idx = [3, 2, 1, 0] if ext[2:3] in (b"h", b"l") else [0, 1, 2, 3]
    fmt = "%03d" if ext[:1] == b"i" else "%d"
    return ".".join(fmt % addr[i] for i in idx)


def ip6_compressed_string(a):
    """ip6_compressed_string(): first longest run (>= 2) of zero 16-bit words
    becomes '::'; IPv4-mapped (::ffff:0:0/96) and ISATAP (bytes 8..11 = 00|02, 00,
    5e, fe) addresses end in dotted decimal."""
    words = [(a[2 * i] << 8) | a[2 * i + 1] for i in range(8)]
    v4mapped = words[:5] == [0] * 5 and words[5] == 0xffff
    isatap = (a[8] | 0x02) == 0x02 and a[9] == 0 and a[10] == 0x5e and a[11] == 0xfe
    use4 = v4mapped or isatap
    rng = 6 if use4 else 8
    zl = [0] * 8
    for i in range(rng):
        for j in range(i, rng):
            if words[j]:
                break
            zl[i] += 1
    longest, colonpos = 1, -1
    for i in range(rng):
        if zl[i] > longest:
            longest, colonpos = zl[i], i
    out = ""
    need = False
    i = 0
    while i < rng:
        if i == colonpos:
            if need or i == 0:
                out += ":"
            out += ":"
            need = False
            i += longest
            continue
        if need:
            out += ":"
        out += "%x" % words[i]
        need = True
        i += 1
    if use4:
        if need:
            out += ":"
        out += ip4_string(a[12:16], b"I4")
    return out


def ip_addr_string(ext, mem, flags, fw, prec):
    """%pI4 %pi4 [hnbl], %pI6 %pi6 %pI6c (printk-formats.rst "IPv4 addresses",
    "IPv6 addresses"); anything but 4/6/S after I/i: "(%pI?)" / "(%pi?)"."""
    v = ext[1:2]
    if v == b"6":
        if ext[:1] == b"I" and ext[2:3] == b"c":
            s = ip6_compressed_string(mem)
        else:
            sep = ":" if ext[:1] == b"I" else ""
            s = sep.join(_hb(mem[2 * i]) + _hb(mem[2 * i + 1]) for i in range(8))
        return string_nocheck(s.encode(), flags, fw, prec)
    if v == b"4":
        return string_nocheck(ip4_string(mem, ext).encode(), flags, fw, prec)
    if v == b"S":
        raise NotDefined("%pIS not modelled")
    return error_string(b"(%pi?)" if ext[:1] == b"i" else b"(%pI?)", flags, fw, prec)


def hex_string(ext, mem, flags, fw, prec):
    """%ph %phC %phD %phN (printk-formats.rst "Raw buffer as a hex string"):
    the field width is the byte count (none: 1, at most 64), never padding."""
    sep = {b"C": ":", b"D": "-", b"N": ""}.get(ext[1:2], " ")
    n = 1 if fw < 0 else min(fw, 64)
    return sep.join(_hb(mem[i]) for i in range(n)).encode()


def address_val(ext, mem, flags, fw, prec):
    """%pa %pap %pad (printk-formats.rst "Physical address types phys_addr_t",
    "DMA address types dma_addr_t"): special_hex_number(): 0x + 16 digits,
    width and precision of the spec ignored."""
    num = int.from_bytes(mem[:8], "little")
    return number(num, 16, SPECIAL | SMALL | ZEROPAD, 18, -1)


GUID_INDEX = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15]


def uuid_string(ext, mem, flags, fw, prec):
    """%pU %pUb %pUB %pUl %pUL (printk-formats.rst "UUID/GUID addresses")."""
    c = ext[1:2]
    idx = GUID_INDEX if c in (b"l", b"L") else list(range(16))
    upper = c in (b"B", b"L")
    s = ""
    for i in range(16):
        s += _hb(mem[idx[i]], upper)
        if i in (3, 5, 7, 9):
            s += "-"
    return string_nocheck(s.encode(), flags, fw, prec)


# bytes each extension reads (the case must give exactly these)
def mem_needed(ext, fw):
    c = ext[:1]
    if c in (b"M", b"m"):
        return 6
    if c in (b"I", b"i"):
        return {b"4": 4, b"6": 16}.get(ext[1:2], 0)
    if c == b"h":
        return 0 if fw == 0 else (1 if fw < 0 else min(fw, 64))
    if c == b"a":
        return 8
    if c == b"U":
        return 16
    raise NotDefined("extension not modelled")


PEXT = {b"M": mac_address_string, b"m": mac_address_string, b"I": ip_addr_string,
        b"i": ip_addr_string, b"h": hex_string, b"a": address_val, b"U": uuid_string}


def pointer_ext(ext, v, flags, fw, prec):
    """pointer() for the modelled extensions. ext: the alphanumeric letters after
    'p' (vsnprintf() skips them all)."""
    f = PEXT.get(ext[:1])
    if f is None:
        raise NotDefined("%p extension not modelled")
    if f is hex_string and fw == 0:        # hex_string(): nothing, before check_pointer()
        return b""
    e = check_pointer(v, flags, fw, prec)
    if e is not None:
        return e
    need = mem_needed(ext, fw)
    if need and len(v) != need:
        raise NotDefined("mem argument of %d bytes, the kernel reads %d" % (len(v), need))
    return f(ext, v, flags, fw, prec)
