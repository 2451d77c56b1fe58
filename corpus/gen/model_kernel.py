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
                raise NotDefined("%p extension")
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
