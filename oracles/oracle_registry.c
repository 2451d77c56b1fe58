/* See oracle_registry.h. */
#include "oracle_registry.h"

#include <stdio.h>
#include <string.h>

static const struct scn_oracle_info list[] = {
#define SCN_ORACLE(name, klass, stage, promise, doc) { name, klass, stage, promise, doc },
#include "oracles.def"
#undef SCN_ORACLE
};

const struct scn_oracle_info *scn_oracles(size_t *n)
{
    *n = sizeof list / sizeof list[0];
    return list;
}

const struct scn_oracle_info *scn_oracle_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof list / sizeof list[0]; i++)
        if (!strcmp(list[i].name, name)) return &list[i];
    return NULL;
}

const char *scn_oracle_class(const char *name)
{
    const struct scn_oracle_info *o = scn_oracle_find(name);
    return o ? o->klass : "invariant";
}

int scn_oracle_on_output(const char *name)
{
    const struct scn_oracle_info *o = scn_oracle_find(name);
    return o && (!strcmp(o->stage, "expectation") || !strcmp(o->stage, "differential"));
}

void scn_oracles_print(void)
{
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        printf("%s\t%s\t%s\t%s\t%s\n", list[i].name, list[i].klass, list[i].stage, list[i].promise, list[i].doc);
}
