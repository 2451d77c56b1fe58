/* Checking a case on any target, the executor target included
 * (core/targets/executor.h): the oracles on its calls (scn_check_case), and
 * what only the executor sees and comes first: the executor died on the case
 * ("crash") or gave no answer in time ("hang"), classified and worded by the
 * one supervisor (core/supervise/end.c: a SIGSEGV memory-safety), or a call
 * wrote outside its buffer ("overrun", or "size0-untouched" at size 0;
 * memory-safety). For an in-process target these are scn_check_case and
 * scn_rootcause_oracle as they are. Used by scn-conform and scn-exec-fuzz.
 */
#ifndef SCN_EXEC_CHECK_H
#define SCN_EXEC_CHECK_H

#include "oracle.h"
#include "rootcause.h"
#include "target.h"

size_t scn_exec_check_case(struct scn_oracle_ctx *x, const struct scn_target *t, struct scn_case *c,
                           unsigned flags, struct scn_report *r);

/* A finding (oracle, klass) of scn_exec_check_case on t, reduced while the
 * same oracle still fires (the executor still dies, ...), and signed. */
void scn_exec_rootcause_oracle(const struct scn_case *c, enum scn_dialect d, struct scn_oracle_ctx *x,
                               const struct scn_target *t, unsigned flags, const char *oracle, const char *klass,
                               struct scn_rootcause *rc);

#endif /* SCN_EXEC_CHECK_H */
