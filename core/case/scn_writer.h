/* The one bounded writer: appends bytes to buf[0..cap), keeps room for a
 * NUL, and counts everything it was given (like snprintf), so that a caller
 * learns the full length of a text that did not fit. Header-only: the case
 * model, the decoder and the reducer write on hot paths. */
#ifndef SCN_WRITER_H
#define SCN_WRITER_H

#include <stddef.h>
#include <string.h>

struct scn_writer {
    char *p;
    size_t cap; /* bytes at p, the NUL included */
    size_t len; /* bytes given so far (may exceed cap - 1) */
};

static inline struct scn_writer scn_writer_on(char *p, size_t cap)
{
    struct scn_writer w = { p, cap, 0 };
    return w;
}

static inline void scn_w_put(struct scn_writer *w, const char *s, size_t n)
{
    if (w->len + 1 < w->cap) {
        size_t room = w->cap - 1 - w->len;
        memcpy(w->p + w->len, s, n < room ? n : room);
    }
    w->len += n;
}

static inline void scn_w_ch(struct scn_writer *w, char ch) { scn_w_put(w, &ch, 1); }
static inline void scn_w_str(struct scn_writer *w, const char *s) { scn_w_put(w, s, strlen(s)); }

static inline void scn_w_uint(struct scn_writer *w, unsigned long long v)
{
    char t[24];
    size_t k = sizeof t;
    do t[--k] = (char)('0' + v % 10); while (v /= 10);
    scn_w_put(w, t + k, sizeof t - k);
}

/* 1 when everything given fit */
static inline int scn_w_fits(const struct scn_writer *w) { return w->len < w->cap; }

/* NUL-terminates (at the end of what fit); returns the full length */
static inline size_t scn_w_end(struct scn_writer *w)
{
    if (w->cap) w->p[w->len < w->cap ? w->len : w->cap - 1] = 0;
    return w->len;
}

#endif /* SCN_WRITER_H */
