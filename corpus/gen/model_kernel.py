"""Model of the Linux kernel's vsnprintf (lib/vsprintf.c of Linux 6.1), the
LINUX_KERNEL dialect: written from reading format_decode(), number(),
string(), widen_string(), pointer(), pointer_string(), set_field_width(),
set_precision() and Documentation/core-api/printk-formats.rst. No kernel code
is copied; this is a behavioural description in Python.

The %p extensions (pointer_ext() below), from printk-formats.rst and the
helpers pointer() calls: %pM/%pm (MAC), %pI4/%pI6/%pIS and the i forms (IP
addresses, struct sockaddr_in/_in6 with port, flowinfo, scope), %ph (hex
buffer), %pE (escaped buffer: lib/string_helpers.c string_escape_mem() and
the Latin-1 isprint() of lib/ctype.c), %pa/%pad, %pU, %pe (ERR_PTR names of
lib/errname.c with CONFIG_SYMBOLIC_ERRNAME=y), %p4cc, %pb/%pbl (bitmaps),
%pr/%pR (struct resource), %ptR/%ptT (kernel/time/timeconv.c
time64_to_tm()), %pNF, %pV (struct va_format: its format printed in place,
with the corpus's va_list of zeros); %pe, %px and %pK only for NULL and
ERR_PTR values, the outputs that do not depend on an address. x86-64 layouts.

Returns the full output, or None when the kernel's behaviour for the case is
not defined (argument types the kernel would read differently, other %p
extensions, %p of an address, values outside the ranges the model covers,
cases that would overflow one of the kernel's own stack buffers).
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


def pointer_string(val, flags, field_width, precision):
    """pointer_string(): hex, SMALL; without a width 16 digits, zero-padded."""
    flags |= SMALL
    if field_width == -1:
        field_width = 16
        flags |= ZEROPAD
    return number(val, 16, flags, field_width, precision)


def widen(body, flags, field_width):
    if len(body) >= field_width:
        return body
    sp = b" " * (field_width - len(body))
    return body + sp if flags & LEFT else sp + body


STOPPED = [False]   # set when the last call stopped at an invalid conversion
# what each va_arg() reads from a va_list of zero words (a %pV's, mem:VAF):
# 0, and NULL for a pointer
ZERO_ARG = {"int": ("int", 0), "uint": ("int", 0), "long": ("long", 0), "ptr": ("ptr", None),
            "str": ("str", None), "mem": ("mem", None)}


def _decimal(fmt, i, n, limit, beyond):
    """The decimal digits of fmt[:n] from i (at least one): their value and
    the index after them (format_decode()'s skip_atoi); NotDefined(beyond)
    for a value above limit (the field it is stored in)."""
    j = i
    while j < n and 0x30 <= fmt[j] <= 0x39:
        j += 1
    if int(fmt[i:j]) > limit:
        raise NotDefined(beyond)
    return int(fmt[i:j]), j


def format_kernel(fmt: bytes, args):
    """vsnprintf()'s full output of fmt with args; args None: a va_list
    of zeros (every argument 0 or NULL)."""
    STOPPED[0] = False
    args = None if args is None else list(args)
    ai = 0

    def va_arg(ctype):
        nonlocal ai
        if args is None:
            return ZERO_ARG[ctype]
        if ai >= len(args):
            raise NotDefined("missing argument")
        t, v = args[ai]
        ai += 1
        if t not in READS[ctype]:
            raise NotDefined("kernel reads %s, argument is %s" % (ctype, t))
        return t, v

    def star_arg(low, high, clamp_low):
        """A '*' width or precision: the next int, clamped to clamp_low..high
        when it is outside low..high (set_field_width(), set_precision())."""
        _, v = va_arg("int")
        v = _num(v, 32, True)
        return v if low <= v <= high else max(clamp_low, min(high, v))

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
            field_width, i = _decimal(fmt, i, n, FIELD_WIDTH_MAX, "literal width beyond the 24-bit field")
        elif i < n and fmt[i] == 0x2A:
            i += 1
            field_width = star_arg(-FIELD_WIDTH_MAX, FIELD_WIDTH_MAX, -FIELD_WIDTH_MAX)
            if field_width < 0:                                   # format_decode()
                field_width = -field_width
                flags |= LEFT
        precision = -1
        if i < n and fmt[i] == 0x2E:
            i += 1
            if i < n and 0x30 <= fmt[i] <= 0x39:
                precision, i = _decimal(fmt, i, n, PRECISION_MAX, "literal precision beyond the 16-bit field")
            elif i < n and fmt[i] == 0x2A:
                i += 1
                precision = max(star_arg(-(1 << 15), PRECISION_MAX, 0), 0)  # format_decode(): < 0 -> 0
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
            # %px of a mem argument (NULL, ERR_PTR) goes with the extensions
            mem_arg = args is None or (ai < len(args) and args[ai][0] == "mem")
            if ext.isalnum() and (ext != b"x" or mem_arg):
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
            out += pointer_string(0 if v is None else v, flags, field_width, precision)
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
        return sockaddr_string(ext, mem, flags, fw, prec)
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


AF_INET, AF_INET6 = 2, 10


def _alpha_letters(ext):
    """The letters ip4/ip6_addr_string_sa() scan after "IS": isalpha() ones only
    (a digit ends the scan; vsnprintf() still skips every alphanumeric)."""
    out = b""
    for c in ext[2:]:
        if not chr(c).isalpha():
            break
        out += bytes([c])
    return out


def sockaddr_string(ext, mem, flags, fw, prec):
    """%pIS %piS [pfschnbl] (printk-formats.rst "IPv4/IPv6 addresses (generic,
    with port, flowinfo, scope)"): ip_addr_string() case 'S' reads sa_family
    (host order); ip4_addr_string_sa() / ip6_addr_string_sa() build the text
    in a stack buffer where the port, flow label and scope id are printed by
    number() with the caller's spec (its width, flags and precision apply to
    them too), then string_nocheck() applies the spec to the whole text.
    x86-64 layouts: sockaddr_in = family(le16) port(be16) addr(4) zero(8);
    sockaddr_in6 = family port flowinfo(be32) addr(16) scope_id(le32)."""
    family = int.from_bytes(mem[0:2], "little")
    letters = _alpha_letters(ext)
    if family == AF_INET:
        order = b""
        for c in letters:
            if c in b"hlnb":          # the last of them wins (fmt4[2])
                order = bytes([c])
        s = ip4_string(mem[4:8], ext[:1] + b"4" + order).encode()
        if b"p" in letters:
            s += b":" + number(int.from_bytes(mem[2:4], "big"), 10, flags, fw, prec)
        room = 16 + 7 - 1             # sizeof("255.255.255.255") + sizeof(":12345"), NUL
    elif family == AF_INET6:
        bracket = any(c in letters for c in b"pfs")
        a = mem[8:24]
        if ext[:1] == b"I" and b"c" in letters:
            s = ip6_compressed_string(a)
        else:
            sep = ":" if ext[:1] == b"I" else ""
            s = sep.join(_hb(a[2 * i]) + _hb(a[2 * i + 1]) for i in range(8))
        s = s.encode()
        if bracket:
            s = b"[" + s + b"]"
        if b"p" in letters:
            s += b":" + number(int.from_bytes(mem[2:4], "big"), 10, flags, fw, prec)
        if b"f" in letters:           # IPV6_FLOWINFO_MASK: the 20-bit label and 8-bit class
            s += b"/" + number(int.from_bytes(mem[4:8], "big") & 0x0FFFFFFF, 10, flags, fw, prec)
        if b"s" in letters:
            s += b"%" + number(int.from_bytes(mem[24:28], "little"), 10, flags, fw, prec)
        room = 48 + 7 + 11 + 12 - 1
    else:
        return error_string(b"(einval)", flags, fw, prec)
    if len(s) > room:
        raise NotDefined("the kernel's stack buffer for %pIS would overflow")
    return string_nocheck(s, flags, fw, prec)


# string_escape_mem() (lib/string_helpers.c) flags, as escaped_string() sets them
ESCAPE_SPACE, ESCAPE_SPECIAL, ESCAPE_NULL, ESCAPE_OCTAL, ESCAPE_NP, ESCAPE_HEX = 1, 2, 4, 8, 16, 32
ESCAPE_ANY = ESCAPE_SPACE | ESCAPE_OCTAL | ESCAPE_SPECIAL | ESCAPE_NULL
ESCAPE_LETTERS = {ord("a"): ESCAPE_ANY, ord("c"): ESCAPE_SPECIAL, ord("h"): ESCAPE_HEX,
                  ord("n"): ESCAPE_NULL, ord("o"): ESCAPE_OCTAL, ord("p"): ESCAPE_NP,
                  ord("s"): ESCAPE_SPACE}


def k_isprint(c):
    """The kernel's isprint() (lib/ctype.c _ctype[]): ASCII 0x20..0x7e and the
    Latin-1 0xa0..0xff (space, punctuation, letters); 0x7f..0x9f are not."""
    return 0x20 <= c <= 0x7e or c >= 0xa0


def string_escape_mem(src, flags):
    """string_escape_mem() without an @only set: per byte, ESCAPE_NP lets a
    printable byte through first; then \\n \\r \\t \\v \\f (SPACE), \\\\ \\a \\e \\"
    (SPECIAL), \\0 (NULL), \\ooo (OCTAL, any byte), \\xhh (HEX, any byte) in that
    order; a byte no selected class takes is copied."""
    out = bytearray()
    space = {0x0a: b"n", 0x0d: b"r", 0x09: b"t", 0x0b: b"v", 0x0c: b"f"}
    special = {0x5c: b"\\", 0x07: b"a", 0x1b: b"e", 0x22: b'"'}
    for c in src:
        if flags & ESCAPE_NP and k_isprint(c):
            out.append(c)
        elif flags & ESCAPE_SPACE and c in space:
            out += b"\\" + space[c]
        elif flags & ESCAPE_SPECIAL and c in special:
            out += b"\\" + special[c]
        elif flags & ESCAPE_NULL and c == 0:
            out += b"\\0"
        elif flags & ESCAPE_OCTAL:
            out += b"\\%03o" % c
        elif flags & ESCAPE_HEX:
            out += b"\\x%02x" % c
        else:
            out.append(c)
    return bytes(out)


def escaped_string(ext, mem, flags, fw, prec):
    """%pE[achnops] (printk-formats.rst "Raw buffer as an escaped string"): the
    field width is the byte count (none: 1), never padding; the letters after E
    up to the first other character are the flags (none: ESCAPE_ANY_NP)."""
    eflags = 0
    for c in ext[1:]:
        if c not in ESCAPE_LETTERS:
            break
        eflags |= ESCAPE_LETTERS[c]
    if not eflags:
        eflags = ESCAPE_ANY | ESCAPE_NP
    return string_escape_mem(mem[:1 if fw < 0 else fw], eflags)


# lib/errname.c with CONFIG_SYMBOLIC_ERRNAME=y on x86-64: errno -> name
# (asm-generic numbers; EWOULDBLOCK and EDEADLOCK are aliases the table skips)
ERRNAMES = dict((int(k), v) for k, v in (w.split(":") for w in """
1:EPERM 2:ENOENT 3:ESRCH 4:EINTR 5:EIO 6:ENXIO 7:E2BIG 8:ENOEXEC 9:EBADF 10:ECHILD 11:EAGAIN
12:ENOMEM 13:EACCES 14:EFAULT 15:ENOTBLK 16:EBUSY 17:EEXIST 18:EXDEV 19:ENODEV 20:ENOTDIR 21:EISDIR
22:EINVAL 23:ENFILE 24:EMFILE 25:ENOTTY 26:ETXTBSY 27:EFBIG 28:ENOSPC 29:ESPIPE 30:EROFS 31:EMLINK
32:EPIPE 33:EDOM 34:ERANGE 35:EDEADLK 36:ENAMETOOLONG 37:ENOLCK 38:ENOSYS 39:ENOTEMPTY 40:ELOOP
42:ENOMSG 43:EIDRM 44:ECHRNG 45:EL2NSYNC 46:EL3HLT 47:EL3RST 48:ELNRNG 49:EUNATCH 50:ENOCSI 51:EL2HLT
52:EBADE 53:EBADR 54:EXFULL 55:ENOANO 56:EBADRQC 57:EBADSLT 59:EBFONT 60:ENOSTR 61:ENODATA 62:ETIME
63:ENOSR 64:ENONET 65:ENOPKG 66:EREMOTE 67:ENOLINK 68:EADV 69:ESRMNT 70:ECOMM 71:EPROTO 72:EMULTIHOP
73:EDOTDOT 74:EBADMSG 75:EOVERFLOW 76:ENOTUNIQ 77:EBADFD 78:EREMCHG 79:ELIBACC 80:ELIBBAD 81:ELIBSCN
82:ELIBMAX 83:ELIBEXEC 84:EILSEQ 85:ERESTART 86:ESTRPIPE 87:EUSERS 88:ENOTSOCK 89:EDESTADDRREQ
90:EMSGSIZE 91:EPROTOTYPE 92:ENOPROTOOPT 93:EPROTONOSUPPORT 94:ESOCKTNOSUPPORT 95:EOPNOTSUPP
96:EPFNOSUPPORT 97:EAFNOSUPPORT 98:EADDRINUSE 99:EADDRNOTAVAIL 100:ENETDOWN 101:ENETUNREACH
102:ENETRESET 103:ECONNABORTED 104:ECONNRESET 105:ENOBUFS 106:EISCONN 107:ENOTCONN 108:ESHUTDOWN
109:ETOOMANYREFS 110:ETIMEDOUT 111:ECONNREFUSED 112:EHOSTDOWN 113:EHOSTUNREACH 114:EALREADY
115:EINPROGRESS 116:ESTALE 117:EUCLEAN 118:ENOTNAM 119:ENAVAIL 120:EISNAM 121:EREMOTEIO 122:EDQUOT
123:ENOMEDIUM 124:EMEDIUMTYPE 125:ECANCELED 126:ENOKEY 127:EKEYEXPIRED 128:EKEYREVOKED
129:EKEYREJECTED 130:EOWNERDEAD 131:ENOTRECOVERABLE 132:ERFKILL 133:EHWPOISON 512:ERESTARTSYS
513:ERESTARTNOINTR 514:ERESTARTNOHAND 515:ENOIOCTLCMD 516:ERESTART_RESTARTBLOCK 517:EPROBE_DEFER
518:EOPENSTALE 519:ENOPARAM 521:EBADHANDLE 522:ENOTSYNC 523:EBADCOOKIE 524:ENOTSUPP 525:ETOOSMALL
526:ESERVERFAULT 527:EBADTYPE 528:EJUKEBOX 529:EIOCBQUEUED 530:ERECALLCONFLICT""".split()))


def _ptr_value(v):
    """The pointer a mem argument passes: NULL 0, ERR(-E) 2**64 - E."""
    if v is None:
        return 0
    assert isinstance(v, tuple), "only NULL and ERR_PTR values have an address-free output"
    return v[1] & ((1 << 64) - 1)


def err_ptr(ext, v, flags, fw, prec):
    """%pe (printk-formats.rst "Error Pointers"): pointer() 'e': an ERR_PTR(-E)
    is err_ptr(): "-ENAME" by string_nocheck() (no error_string() limit), or,
    without a name, -E by number() (SIGN, base 10, the caller's width,
    flags and precision); anything else (NULL here) is default_pointer()."""
    if not isinstance(v, tuple):
        return pointer_string(_ptr_value(v), flags, fw, prec)
    name = ERRNAMES.get(-v[1])
    if name is not None:
        return string_nocheck(b"-" + name.encode(), flags, fw, prec)
    return number(_ptr_value(v), 10, flags | SIGN, fw, prec)


def raw_pointer(ext, v, flags, fw, prec):
    """%px (pointer_string()) and %pK (restricted_pointer(): kptr_restrict 0,
    its initial value, is default_pointer(); NULL and ERR_PTR values are
    printed unhashed by pointer_string(), kptr_restrict 2 prints NULL)."""
    return pointer_string(_ptr_value(v), flags, fw, prec)


def fourcc_string(ext, mem, flags, fw, prec):
    """%p4cc (printk-formats.rst "V4L2 and DRM FourCC code"): four characters
    from the low byte up (bit 31 cleared; not ASCII-printable: '.'),
    big-/little-endian from bit 31, then (0x%08x) of the value; string()."""
    orig = int.from_bytes(mem[:4], "little")
    val = orig & 0x7FFFFFFF
    chars = bytes(c if 0x20 <= c <= 0x7e else 0x2e for c in val.to_bytes(4, "little"))
    s = chars + (b" big-endian" if orig >> 31 else b" little-endian")
    s += b" (" + number(orig, 16, SPECIAL | SMALL | ZEROPAD, 10, -1) + b")"
    return string_nocheck(s, flags, fw, prec)


def bitmap_string(ext, mem, flags, fw, prec):
    """%*pb / %*pbl (printk-formats.rst "bitmap and its derivatives"): the field
    width is the number of bits (none or negative: 0); an array of unsigned
    long (64-bit little-endian words); bits at or above it are not shown.
    pb: 32-bit chunks from the top, comma-separated, each %0Nx with N the
    chunk's nibbles (the top chunk may be partial); pbl: the runs of set bits
    in decimal, "a" or "a-b", comma-separated."""
    nbits = max(fw, 0)
    bits = int.from_bytes(mem, "little") & ((1 << nbits) - 1)
    if ext[1:2] == b"l":
        runs, b = [], 0
        while b < nbits:
            if bits >> b & 1:
                e = b
                while e + 1 < nbits and bits >> (e + 1) & 1:
                    e += 1
                runs.append(b"%d" % b if e == b else b"%d-%d" % (b, e))
                b = e + 1
            else:
                b += 1
        return b",".join(runs)
    chunks = []
    chunk = nbits % 32 or 32
    i = (nbits + 31) // 32 * 32 - 32
    while i >= 0:
        chunks.append(b"%0*x" % ((chunk + 3) // 4, bits >> i & ((1 << chunk) - 1)))
        chunk = 32
        i -= 32
    return b",".join(chunks)


IORESOURCE_IO, IORESOURCE_MEM, IORESOURCE_IRQ, IORESOURCE_DMA, IORESOURCE_BUS = \
    0x100, 0x200, 0x400, 0x800, 0x1000
IORESOURCE_PREFETCH, IORESOURCE_MEM_64, IORESOURCE_WINDOW = 0x2000, 0x100000, 0x200000
IORESOURCE_DISABLED, IORESOURCE_UNSET = 0x10000000, 0x20000000


def resource_string(ext, mem, flags, fw, prec):
    """%pr / %pR (printk-formats.rst "Struct Resources"): "[type start-end" (one
    number when start == end), then " flags 0x.." (r) or the decoded 64bit /
    pref / window / disabled (R; an unset one shows "size N"), "]"; the type
    picks the number style: io 0x%04x, mem (and ??? for no type, never
    decoded) 0x%08x, irq/dma decimal, bus %02x. The whole text then gets the
    caller's spec (string_nocheck()). The struct as include/linux/ioport.h
    lays it out on x86-64: u64 start, u64 end, const char *name, unsigned long
    flags (little-endian)."""
    start, end, rflags = (int.from_bytes(mem[i:i + 8], "little") for i in (0, 8, 24))
    decode = ext[:1] == b"R"
    hexs = lambda w: lambda n: number(n, 16, SPECIAL | SMALL | ZEROPAD, w, -1)
    dec = lambda n: number(n, 10, 0, 0, -1)
    if rflags & IORESOURCE_IO:
        kind, num = b"io  ", hexs(6)
    elif rflags & IORESOURCE_MEM:
        kind, num = b"mem ", hexs(10)
    elif rflags & IORESOURCE_IRQ:
        kind, num = b"irq ", dec
    elif rflags & IORESOURCE_DMA:
        kind, num = b"dma ", dec
    elif rflags & IORESOURCE_BUS:
        kind, num = b"bus ", lambda n: number(n, 16, SMALL | ZEROPAD, 2, -1)
    else:
        kind, num, decode = b"??? ", hexs(10), False
    s = b"[" + kind
    if decode and rflags & IORESOURCE_UNSET:
        s += b"size " + num((end - start + 1) & ((1 << 64) - 1))
    else:
        s += num(start)
        if start != end:
            s += b"-" + num(end)
    if decode:
        for bit, word in [(IORESOURCE_MEM_64, b" 64bit"), (IORESOURCE_PREFETCH, b" pref"),
                          (IORESOURCE_WINDOW, b" window"), (IORESOURCE_DISABLED, b" disabled")]:
            if rflags & bit:
                s += word
    else:
        s += b" flags " + number(rflags, 16, SPECIAL | SMALL, 0, -1)
    s += b"]"
    if len(s) > 74:                    # sym[75] in resource_string()
        raise NotDefined("the kernel's stack buffer for %pr would overflow")
    return string_nocheck(s, flags, fw, prec)


def _days_to_civil(days):
    """Proleptic Gregorian date of a day count from 1970-01-01 (what
    time64_to_tm() computes): (year, month 1..12, day)."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (m <= 2), m, d


def _int32(b):
    return int.from_bytes(b, "little", signed=True)


def time_and_date(ext, mem, flags, fw, prec):
    """%pt[RT][dt][r][s] (printk-formats.rst "Time and date"): R a struct
    rtc_time (nine ints: sec min hour mday mon year wday yday isdst), its
    fields printed as they are; T a time64_t (seconds since the epoch, UTC)
    through time64_to_tm(). date_str(): year + 1900 (r: + 0) with at least 4
    digits, month + 1 (r: + 0) and day with 2; time_str(): 2 digits each; an
    int is passed to number() as unsigned long long, so a negative one prints
    its 64-bit two's complement. Default "date T time", s: a space, d/t: one
    of them. The caller's width and precision are not used."""
    kind = ext[1:2]
    if kind == b"R":
        sec, mn, hour, mday, mon, year = (_int32(mem[4 * i:4 * i + 4]) for i in range(6))
    elif kind == b"T":
        t = int.from_bytes(mem[:8], "little", signed=True)
        days, rem = divmod(t, 86400)
        y, m, mday = _days_to_civil(days)
        hour, mn, sec = rem // 3600, rem % 3600 // 60, rem % 60
        year = _num(y - 1900, 32, True)    # struct tm's long tm_year into rtc_time's int
        mon = m - 1
    else:
        return error_string(b"(%pt?)", flags, fw, prec)
    have_d = have_t = True
    k = 2
    if ext[2:3] == b"d":
        have_t, k = False, 3
    elif ext[2:3] == b"t":
        have_d, k = False, 3
    raw, sep = False, b"T"
    for c in ext[k:]:
        if c == ord("r"):
            raw = True
        elif c == ord("s"):
            sep = b" "
        else:
            break
    if not (-2**31 <= year + (0 if raw else 1900) < 2**31):
        raise NotDefined("int overflow in date_str()")
    d2 = lambda v: number(v & ((1 << 64) - 1), 10, ZEROPAD, 2, -1)
    out = b""
    if have_d:
        out += number((year + (0 if raw else 1900)) & ((1 << 64) - 1), 10, ZEROPAD, 4, -1)
        out += b"-" + d2(mon + (0 if raw else 1)) + b"-" + d2(mday)
    if have_d and have_t:
        out += sep
    if have_t:
        out += d2(hour) + b":" + d2(mn) + b":" + d2(sec)
    return out


def netdev_bits(ext, mem, flags, fw, prec):
    """%pNF (printk-formats.rst "Network device features"): the u64
    netdev_features_t as special_hex_number(): 0x + 16 digits, the caller's
    spec unused; another letter after N: "(%pN?)"."""
    if ext[1:2] != b"F":
        return error_string(b"(%pN?)", flags, fw, prec)
    return number(int.from_bytes(mem[:8], "little"), 16, SPECIAL | SMALL | ZEROPAD, 18, -1)


# bytes each extension reads (the case must give exactly these)
def mem_needed(ext, fw, mem):
    c = ext[:1]
    if c in (b"M", b"m"):
        return 6
    if c in (b"I", b"i"):
        if ext[1:2] == b"S":           # by the family: sockaddr_in6 28, sockaddr_in (and others) 16
            return 28 if int.from_bytes(mem[:2], "little") == AF_INET6 else 16
        return {b"4": 4, b"6": 16}.get(ext[1:2], 0)
    if c == b"h":
        return 0 if fw == 0 else (1 if fw < 0 else min(fw, 64))
    if c in (b"a", b"N"):
        return 8
    if c == b"U":
        return 16
    if c == b"E":
        return 1 if fw < 0 else fw
    if c == b"4":
        return 4
    if c == b"b":                      # whole unsigned longs, at least one
        return 8 * max(1, (max(fw, 0) + 63) // 64)
    if c in (b"r", b"R"):
        return 32                      # start, end, name, flags (include/linux/ioport.h)
    if c == b"t":
        return {b"R": 36, b"T": 8}.get(ext[1:2], 0)
    raise NotDefined("extension not modelled")


def va_format(ext, v, flags, fw, prec):
    """%pV (printk-formats.rst "struct va_format": a "recursive vsnprintf"):
    pointer() 'V' is va_format(): check_pointer(), then vsnprintf() of fmt
    with a va_copy() of *va into the room left, buf moved on by its full
    length, so the bytes are the format's output in place; the width and
    precision are not used. The corpus's va_list (mem:VAF) holds only zeros:
    fmt (up to its first NUL) is printed with every argument 0 or NULL. An
    invalid conversion stops the nested vsnprintf() only."""
    stopped = STOPPED[0]
    try:
        return format_kernel(v[1].split(b"\0")[0], None)
    finally:
        STOPPED[0] = stopped


PEXT = {b"M": mac_address_string, b"m": mac_address_string, b"I": ip_addr_string,
        b"i": ip_addr_string, b"h": hex_string, b"a": address_val, b"U": uuid_string,
        b"E": escaped_string, b"4": fourcc_string, b"b": bitmap_string, b"r": resource_string,
        b"R": resource_string, b"t": time_and_date, b"N": netdev_bits}
# the pointer itself is printed: only NULL and ERR_PTR values are modelled
PVALUE = {b"e": err_ptr, b"x": raw_pointer, b"K": raw_pointer}


def pointer_ext(ext, v, flags, fw, prec):
    """pointer() for the modelled extensions. ext: the alphanumeric letters after
    'p' (vsnprintf() skips them all)."""
    if ext[:1] == b"V":
        if isinstance(v, tuple) and v[0] == "vaf":
            return va_format(ext, v, flags, fw, prec)
        e = check_pointer(v, flags, fw, prec)
        if e is None:
            raise NotDefined("%pV of bytes that are no struct va_format")
        return e
    if ext[:1] in PVALUE:
        if not (v is None or isinstance(v, tuple)):
            raise NotDefined("the output would depend on an address")
        return PVALUE[ext[:1]](ext, v, flags, fw, prec)
    f = PEXT.get(ext[:1])
    if f is None:
        raise NotDefined("%p extension not modelled")
    if f in (hex_string, escaped_string) and fw == 0:   # nothing, before check_pointer()
        return b""
    if f is fourcc_string and ext[1:3] != b"cc":         # before check_pointer() too
        return error_string(b"(%p4?)", flags, fw, prec)
    e = check_pointer(v, flags, fw, prec)
    if e is not None:
        return e
    need = mem_needed(ext, fw, v)
    if need and len(v) != need:
        raise NotDefined("mem argument of %d bytes, the kernel reads %d" % (len(v), need))
    return f(ext, v, flags, fw, prec)
