/* A case as sections: literal runs and conversion specifications (like LLVM
 * libc's FormatSection), over the case's arguments, so that a specification
 * can be edited part by part and rendered back to a case. Arguments are
 * rendered in the order the specifications read them (sequential form) or
 * numbered in the order of their first use (positional form), so that a
 * rendered case is canonical. The reducer (reduce.c) edits cases this way;
 * the shape of a case (rootcause.h) is written from its sections. */
#ifndef SCN_SECTIONS_H
#define SCN_SECTIONS_H

#include <stddef.h>
#include <string.h>

#include "case.h"
#include "spec.h"

#define SCN_SECTIONS_MAX (2 * SCN_MAX_SPECS + 2)

struct scn_section {
    int is_spec;
    size_t off, len;   /* literal: bytes in m->lit */
    unsigned flags;
    int width, prec;   /* SCN_SPEC_NONE / SCN_SPEC_STAR / value */
    char lenmod[5];
    char conv;
    int wa, pa, va;    /* argument slots, -1 none */
};

struct scn_sections {
    size_t n;
    struct scn_section it[SCN_SECTIONS_MAX];
    int positional;
    size_t tail_off, tail_len; /* from the first invalid specification (or a NUL byte) on, verbatim */
    size_t nargs;
    struct scn_arg args[SCN_CASE_MAX_ARGS];
    size_t nsizes;
    size_t sizes[SCN_CASE_MAX_SIZES];
    unsigned char round; /* the case's rounding direction (case.h): every edit keeps it */
    size_t lit_used;
    char lit[SCN_CASE_MAX_FMT + 1];
    _Alignas(16) char arena[SCN_CASE_ARENA]; /* strings only ever get shorter: offsets stay valid */
};


/* A tail that holds a '%' may read arguments (some printfs go on after an
 * invalid specification): while it is there, the arguments keep their
 * places and types, and only edits that change neither may be made. */
int scn_sections_frozen(const struct scn_sections *m);
/* The sections of c (0). */
int scn_sections_of(const struct scn_case *c, enum scn_dialect d, struct scn_sections *m);
/* The case of m: 0, or -1 when it does not fit a case. */
int scn_sections_render(const struct scn_sections *m, struct scn_case *c);
/* Its specifications, and how many times they read argument slot. */
size_t scn_sections_count(const struct scn_sections *m);
int scn_sections_uses(const struct scn_sections *m, int slot);

static inline int scn_is_int_conv(char c) { return c && strchr("diouxXbB", c) != NULL; }
static inline int scn_is_float_conv(char c) { return c && strchr("aAeEfFgG", c) != NULL; }

#endif /* SCN_SECTIONS_H */
