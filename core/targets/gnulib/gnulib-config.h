/* The config.h of gnulib's vasnprintf (module vasnprintf-posix) on Debian
 * bookworm, glibc, gcc or clang: the project's file, not gnulib's.
 * build-gnulib.sh copies it to WORKDIR/config.h and compiles gnulib's own
 * lib/vasnprintf.c, printf-args.c, printf-parse.c, xsize.c and asnprintf.c
 * from /usr/share/gnulib/lib, unmodified, with it as their <config.h>,
 * instead of running gnulib-tool + autoreconf + configure (minutes on two
 * cores).
 *
 * Every define below is what `gnulib-tool --create-testdir vasnprintf-posix`
 * and its configure find on Debian bookworm x86-64 (glibc 2.36, gcc 12;
 * gnulib 20230209+stable-1), limited to the macros those five files and the
 * gnulib headers they include test.  Checked: built both ways with
 * -O1 -g -fPIC, the objects have the same code (objdump -d) and the
 * conformance corpus gives the same results.  A macro these files test and
 * that configure leaves undefined is listed as "#undef", with the reason. */
#ifndef SCN_GNULIB_CONFIG_H
#define SCN_GNULIB_CONFIG_H

/* AC_USE_SYSTEM_EXTENSIONS, as every gnulib configure does: the libc's
 * extensions on (on glibc only _GNU_SOURCE and the __STDC_WANT_* macros
 * matter; the others name other systems and are harmless here). */
#ifndef _ALL_SOURCE
# define _ALL_SOURCE 1
#endif
#ifndef _DARWIN_C_SOURCE
# define _DARWIN_C_SOURCE 1
#endif
#ifndef __EXTENSIONS__
# define __EXTENSIONS__ 1
#endif
#ifndef _GNU_SOURCE
# define _GNU_SOURCE 1
#endif
#ifndef _HPUX_ALT_XOPEN_SOCKET_API
# define _HPUX_ALT_XOPEN_SOCKET_API 1
#endif
#ifndef _NETBSD_SOURCE
# define _NETBSD_SOURCE 1
#endif
#ifndef _OPENBSD_SOURCE
# define _OPENBSD_SOURCE 1
#endif
#ifndef _POSIX_PTHREAD_SEMANTICS
# define _POSIX_PTHREAD_SEMANTICS 1
#endif
#ifndef __STDC_WANT_IEC_60559_ATTRIBS_EXT__
# define __STDC_WANT_IEC_60559_ATTRIBS_EXT__ 1
#endif
#ifndef __STDC_WANT_IEC_60559_BFP_EXT__
# define __STDC_WANT_IEC_60559_BFP_EXT__ 1
#endif
#ifndef __STDC_WANT_IEC_60559_DFP_EXT__
# define __STDC_WANT_IEC_60559_DFP_EXT__ 1
#endif
#ifndef __STDC_WANT_IEC_60559_EXT__
# define __STDC_WANT_IEC_60559_EXT__ 1
#endif
#ifndef __STDC_WANT_IEC_60559_FUNCS_EXT__
# define __STDC_WANT_IEC_60559_FUNCS_EXT__ 1
#endif
#ifndef __STDC_WANT_IEC_60559_TYPES_EXT__
# define __STDC_WANT_IEC_60559_TYPES_EXT__ 1
#endif
#ifndef __STDC_WANT_LIB_EXT2__
# define __STDC_WANT_LIB_EXT2__ 1
#endif
#ifndef __STDC_WANT_MATH_SPEC_FUNCS__
# define __STDC_WANT_MATH_SPEC_FUNCS__ 1
#endif
#ifndef _TANDEM_SOURCE
# define _TANDEM_SOURCE 1
#endif

/* The facts below are glibc's: refuse anything else rather than build a
 * vasnprintf configured for the wrong libc. */
#include <features.h>
#if !defined __GLIBC__ || defined __UCLIBC__
# error "core/targets/gnulib/config.h states glibc's facts; this is not glibc"
#endif

/* ---- What configure finds in glibc (headers, functions, printf) ---- */

/* <features.h> exists (AC_CHECK_HEADERS_ONCE; printf-parse.h includes it). */
#define HAVE_FEATURES_H 1
/* <stdint.h> exists, C99 (gl_STDINT_H; xsize.h includes it for SIZE_MAX). */
#define HAVE_STDINT_H 1
/* alloca works, <alloca.h> has it (gl_FUNC_ALLOCA: glibc, gcc builtin). */
#define HAVE_ALLOCA 1
#define HAVE_ALLOCA_H 1
/* wchar_t and wint_t exist (gt_TYPE_WCHAR_T, gt_TYPE_WINT_T): %lc and %ls
 * arguments are fetched as such. */
#define HAVE_WCHAR_T 1
#define HAVE_WINT_T 1
/* glibc has snprintf (AC_CHECK_FUNCS snprintf): vasnprintf hands each
 * directive to it (USE_SNPRINTF).  There is no Windows _snprintf
 * (AC_CHECK_DECLS _snprintf: 0). */
#define HAVE_SNPRINTF 1
#define HAVE_DECL__SNPRINTF 0
/* gl_SNPRINTF_RETVAL_C99 and gl_SNPRINTF_TRUNCATION_C99 (run tests): glibc's
 * snprintf returns the full length and truncates as C99 says, so vasnprintf
 * lets it write straight into the result buffer. */
#define HAVE_SNPRINTF_RETVAL_C99 1
#define HAVE_SNPRINTF_TRUNCATION_C99 1
/* AC_CHECK_FUNCS_ONCE in gl_PREREQ_VASNPRINTF: all in glibc. */
#define HAVE_MBRTOWC 1
#define HAVE_WCRTOMB 1
#define HAVE_STRNLEN 1
#define HAVE_WCSLEN 1
#define HAVE_WCSNLEN 1
/* #undef HAVE_NL_LANGINFO: the vasnprintf-posix configure does not check
 * nl_langinfo (only modules needing the locale's decimal point for their own
 * float formatting do), so it stays undefined; it is only used by that
 * formatting, which is off here (NEED_PRINTF_*, below). */
/* DBL_EXPBIT0_*: where the exponent of a double lies (gl_DOUBLE_EXPONENT_
 * LOCATION, x86-64 little-endian IEEE 754: word 1, bit 20).  Used only by
 * the NEED_PRINTF_* code, given for completeness as configure defines it. */
#define DBL_EXPBIT0_WORD 1
#define DBL_EXPBIT0_BIT 20

/* vasnprintf-posix (m4/vasnprintf-posix.m4) runs gnulib's printf tests
 * (m4/printf.m4) against glibc's printf and defines NEED_PRINTF_* for each
 * one it fails, making vasnprintf do that formatting itself.  glibc 2.36
 * passes them all (%a, %F, %ls, doubles, infinities and NaNs in double and
 * long double, the ' - 0 flags, large precisions, ENOMEM), so configure
 * defines none and vasnprintf leaves every directive to glibc's snprintf:
 *   #undef NEED_PRINTF_DIRECTIVE_A, NEED_PRINTF_DIRECTIVE_F,
 *   NEED_PRINTF_DIRECTIVE_LS, NEED_PRINTF_DOUBLE, NEED_PRINTF_ENOMEM,
 *   NEED_PRINTF_FLAG_GROUPING, NEED_PRINTF_FLAG_LEFTADJUST,
 *   NEED_PRINTF_FLAG_ZERO, NEED_PRINTF_INFINITE_DOUBLE,
 *   NEED_PRINTF_INFINITE_LONG_DOUBLE, NEED_PRINTF_LONG_DOUBLE,
 *   NEED_PRINTF_UNBOUNDED_PRECISION.
 * #undef REPLACE_VASNPRINTF: glibc has no vasnprintf, so gnulib's is added
 * under its own name (no rpl_ prefix; build-gnulib.sh renames it gnulib_). */

/* The C99 'restrict' keyword (AC_C_RESTRICT finds gcc's __restrict__). */
#define restrict __restrict__

/* ---- From gnulib's own config.h text (m4/gnulib-common.m4, gl_COMMON and
 * lib/stdio.in.h), what it yields for gcc and clang: only the macros these
 * files use (xsize.h: _GL_INLINE*, ATTRIBUTE_PURE; vasnprintf.c:
 * FALLTHROUGH; vasnprintf.h: _GL_ATTRIBUTE_FORMAT). ---- */
#define _GL_GNUC_PREREQ(major, minor) \
    ((major) < __GNUC__ + ((minor) <= __GNUC_MINOR__))
/* C99 inline semantics (gcc and clang in their default gnu11/gnu17 modes):
 * xsize.h's functions are inline, xsize.c has their external definitions. */
#if defined __GNUC_STDC_INLINE__ && __GNUC_STDC_INLINE__
# define _GL_INLINE inline
# define _GL_EXTERN_INLINE extern inline
# define _GL_EXTERN_INLINE_IN_USE
#else
# error "gnulib's xsize.h needs C99 inline semantics (gcc or clang, C99 or later)"
#endif
#define _GL_INLINE_HEADER_BEGIN
#define _GL_INLINE_HEADER_END
#define _GL_ATTRIBUTE_PURE __attribute__ ((__pure__))
#define _GL_ATTRIBUTE_CONST __attribute__ ((__const__))
#define _GL_ATTRIBUTE_FALLTHROUGH __attribute__ ((__fallthrough__))
#define _GL_ATTRIBUTE_MAYBE_UNUSED __attribute__ ((__unused__))
#define _GL_UNUSED _GL_ATTRIBUTE_MAYBE_UNUSED
#define _GL_ATTRIBUTE_FORMAT(spec) __attribute__ ((__format__ spec))
/* gnulib's <stdio.h> (lib/stdio.in.h): __gnu_printf__ from gcc 4.4 on. */
#if __GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 4)
# define _GL_ATTRIBUTE_SPEC_PRINTF_STANDARD __gnu_printf__
#else
# define _GL_ATTRIBUTE_SPEC_PRINTF_STANDARD __printf__
#endif

#endif
