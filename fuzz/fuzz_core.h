/* scnfuzz fuzzing core, shared by the libFuzzer harnesses, their AFL++
 * builds and scn-replay: fuzzer bytes -> case -> oracles on every target at a
 * few sizes -> differential -> findings (JSON lines).
 *
 * Input bytes: ctrl byte, then scn_case_from_bytes' input.
 *   ctrl bit 0      dialect: 0 ISO, 1 kernel (used where the fuzzer lets the
 *                   input choose it: fuzz_ref, fuzz_planted; scn-replay default)
 *   ctrl bit 1      robust decoding (format garbage, SCN_DECODE_ROBUST)
 *   ctrl bit 2      C23 conversions (%b %B wN), only where every target has them
 *   ctrl bits 3..7  the input-chosen buffer size (0..31), added to the
 *                   oracles' sizes (0, 1, len-1, len, len+1, + 3 seeded)
 *
 * Findings: one finding record (docs/FINDINGS.md, oracles/finding.h) per
 * finding met for the first time in this process (its localised culprit and
 * verdict), reduced to its root cause, appended with one write(2) to the
 * file named by env SCN_FINDINGS and written to stderr. Then abort() for a
 * new bug (no rule explains it), unless env SCN_FUZZ_CONTINUE=1 (campaign
 * mode: the run goes on). Findings a rule explains (allowances, known bugs
 * and gaps) never abort.
 *
 * Env SCN_FUZZ_ORACLE_EVERY=N: the per-size oracles run on every N-th input
 * only (every input gets one C99 call per target + the differential; the
 * sampled oracles run inside the coverage fence, fuzz_core.c); 1 = all.
 * Env SCN_DIFF_NO_MEMO=1: no memo of localised verdicts (differential.h).
 * Env SCN_FUZZ_NO_FLOAT=1 decodes no floating conversions (campaigns that
 * leave out the slow float paths, and measurements).
 */
#ifndef SCN_FUZZ_CORE_H
#define SCN_FUZZ_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"
#include "differential.h"
#include "oracle.h"
#include "target.h"

#define FZ_CTRL_KERNEL 0x01u
#define FZ_CTRL_ROBUST 0x02u
#define FZ_CTRL_C23 0x04u
#define FZ_CTRL_SIZE_SHIFT 3

enum fz_dialect_mode { FZ_FIXED_ISO = 0, FZ_FIXED_KERNEL = 1, FZ_FROM_INPUT = 2 };

struct fz_config {
    const char *name;                 /* fuzzer name, for messages */
    enum fz_dialect_mode mode;
    /* targets per dialect ([0] ISO, [1] kernel); the first is the baseline */
    const struct scn_target *targets[2][SCN_DIFF_MAX_TARGETS];
    size_t ntargets[2];
    int allow_c23;                    /* honour ctrl bit 2 */
    int no_robust;                    /* ignore ctrl bit 1 */
    unsigned decode_flags;            /* more SCN_DECODE_* flags */
    int differential;                 /* compare the targets (needs >= 2) */
    int no_repeat;                    /* skip the "repeatable" re-calls */
    int no_scn;                       /* check the C99 family only (the scnprintf family
                                         of targets without a native one is always skipped:
                                         it is the canonical wrapper) */
    unsigned oracle_every;            /* 0/1: all oracles on every input; N: on every N-th
                                         input, the others get the differential only
                                         (env SCN_FUZZ_ORACLE_EVERY overrides) */
    unsigned sampled_skip[2];         /* with oracle_every > 1: targets (bit i for
                                         targets[d][i]) left out of the sampled per-size
                                         oracles, because another fuzzer checks them */
};

/* Output sink of findings (what fz_report does besides the JSON line). */
enum fz_mode { FZ_MODE_FUZZ = 0, FZ_MODE_REPLAY = 1 };

/* Sets up the oracle contexts (once). Returns 0 or -1. */
int fz_init(struct fz_config *cfg, enum fz_mode mode);

/* Decodes ctrl + bytes into c (decoded as the fuzzers do). dialect_override
 * < 0: from the input (or the config's fixed dialect). Returns the dialect. */
enum scn_dialect fz_decode(const struct fz_config *cfg, const uint8_t *data, size_t size,
                           struct scn_case *c, int dialect_override);

/* Runs one case: the oracles on every target of the dialect, then the
 * differential. Returns the number of bug findings (invariant, memory-safety,
 * divergence; implementation-defined ones are reported but not counted;
 * in FZ_MODE_FUZZ may abort). */
size_t fz_run_case(const struct fz_config *cfg, struct scn_case *c, enum scn_dialect d);

/* The differential verdict of the last fz_run_case (enum scn_diff_verdict),
 * -1 when it did not run. */
extern int fz_last_diff;

/* libFuzzer-style entry: decode + run. */
int fz_one_input(const struct fz_config *cfg, const uint8_t *data, size_t size);

/* In replay mode: print each target's return value and bytes side by side. */
void fz_print_outputs(const struct fz_config *cfg, struct scn_case *c, enum scn_dialect d);

/* Adds a target to the config for a dialect (ignores NULL). */
void fz_add_target(struct fz_config *cfg, enum scn_dialect d, const struct scn_target *t);

/* The fuzzers' configurations by name: "ref", "iso_diff", "kernel_diff",
 * "planted" (fuzz_configs.c). Returns 0, or -1 for an unknown name. */
int fz_config_by_name(const char *name, struct fz_config *cfg);

/* Reports a finding that is not about one target's outputs (fuzz_parse):
 * the same record (signature oracle:<what>:case-model:<klass>, the case as
 * it is) and abort policy. Returns 1. */
size_t fz_report_simple(const struct scn_case *c, const char *oracle, const char *klass, const char *what,
                        const char *detail);

/* The planted-bug target selected by env SCN_PLANTED (planted.c); NULL if
 * the variable names no bug. fz_planted_names: NULL-terminated list. */
const struct scn_target *fz_planted_target(void);
extern const char *const fz_planted_names[];
/* A planted target's call (planted.c): drv prints fmt into a writer (-1:
 * beyond it); its output is cut to buf like vsnprintf, or, when drv gives
 * up or overflows, the reference with opt (NULL: ISO) prints the format. */
struct scn_writer;
struct ref_options;
int fz_planted_drive(int (*drv)(struct scn_writer *, const char *, va_list), const struct ref_options *opt,
                     char *buf, size_t size, const char *fmt, va_list ap);
/* the kernel dialect's planted bugs (planted_kernel.c): their target, or NULL */
extern const char *const fz_planted_kernel_names[];
const struct scn_target *fz_planted_kernel_target(const char *bug);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One libFuzzer harness = one configuration. */
#define FZ_DEFINE_FUZZER(NAME)                                                       \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                     \
    {                                                                                \
        static struct fz_config cfg;                                                 \
        if (!cfg.name) {                                                             \
            if (fz_config_by_name(NAME, &cfg) || fz_init(&cfg, FZ_MODE_FUZZ)) abort(); \
        }                                                                            \
        return fz_one_input(&cfg, data, size);                                       \
    }

#endif
