/* The fuzzers' configurations (shared by the libFuzzer/AFL++ harnesses and
 * scn-replay, so that a reproducer replays exactly as it was fuzzed). */
#include <string.h>

#include "fuzz_core.h"

int fz_config_by_name(const char *name, struct fz_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    if (!strcmp(name, "ref")) {
        /* the reference alone vs the oracles; the input chooses the dialect */
        cfg->name = "ref";
        cfg->mode = FZ_FROM_INPUT;
        cfg->allow_c23 = 1;
        fz_add_target(cfg, SCN_DIALECT_ISO, scn_target_find("ref"));
        fz_add_target(cfg, SCN_DIALECT_KERNEL, scn_target_find("ref-kernel"));
    } else if (!strcmp(name, "iso_diff")) {
        /* ref, glibc, musl (when built): the differential on every input,
         * the per-size C99-family oracles of glibc and musl on every 64th
         * (the conformance suite checks every size of every corpus case on
         * glibc and musl; on every 32nd they took a tenth of the time, and
         * the coverage fence keeps the rate out of the feedback). The
         * reference's oracles, both families at every size, are fuzz_ref's
         * job, on every input. No C23: musl 1.2.3 has no %b/wN. No long
         * double beyond 2^+-1100 in decimal conversions (case.h
         * SCN_DECODE_SHORT_LD: milliseconds each in glibc and musl).
         * (README, "Fuzzer throughput".) */
        cfg->name = "iso_diff";
        cfg->mode = FZ_FIXED_ISO;
        cfg->differential = 1;
        cfg->no_repeat = 1;
        cfg->no_scn = 1;
        cfg->oracle_every = 64;
        cfg->sampled_skip[SCN_DIALECT_ISO] = 1u << 0; /* ref */
        cfg->decode_flags = SCN_DECODE_SHORT_LD;
        fz_add_target(cfg, SCN_DIALECT_ISO, scn_target_find("ref"));
        fz_add_target(cfg, SCN_DIALECT_ISO, scn_target_find("glibc"));
        fz_add_target(cfg, SCN_DIALECT_ISO, scn_target_find("musl"));
    } else if (!strcmp(name, "kernel_diff")) {
        cfg->name = "kernel_diff";
        cfg->mode = FZ_FIXED_KERNEL;
        cfg->differential = 1;
        cfg->no_repeat = 1;
        fz_add_target(cfg, SCN_DIALECT_KERNEL, scn_target_find("ref-kernel"));
        fz_add_target(cfg, SCN_DIALECT_KERNEL, scn_target_find("kernel"));
    } else if (!strcmp(name, "planted")) {
        /* the planted bug (env SCN_PLANTED) beside the reference it wraps;
         * well-defined cases without wide characters only: what the planted
         * bugs are about, and no encoding errors (where the reference's
         * scnprintf family and the families-agree oracle disagree) */
        cfg->name = "planted";
        cfg->mode = FZ_FIXED_ISO;
        cfg->no_robust = 1;
        cfg->decode_flags = SCN_DECODE_NO_WIDE;
        cfg->differential = 1;
        /* the per-size oracles (what finds the scnprintf-family bugs, on
         * nearly any input) on every 8th input, the differential (what finds
         * the conversion and count bugs) on all: several times the
         * executions per second (README, "Detection power") */
        cfg->oracle_every = 8;
        fz_add_target(cfg, SCN_DIALECT_ISO, scn_target_find("ref"));
        fz_add_target(cfg, SCN_DIALECT_ISO, fz_planted_target());
    } else {
        return -1;
    }
    return 0;
}
