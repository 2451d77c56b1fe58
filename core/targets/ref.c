/* Targets "ref" (ISO dialect) and "ref-kernel" (LINUX_KERNEL dialect): the
 * reference engine in impl/. The target signature has no options argument,
 * so the kernel dialect goes through small wrappers over the _ex entries. */
#include "scn/ref_printf.h"
#include "target.h"

static const char *ref_version(void) { return "scnfuzz ref"; }

static const struct ref_options kernel_opts = { REF_DIALECT_LINUX_KERNEL, REF_ENCODING_C, REF_ROUND_NEAREST };

static int refk_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return ref_vsnprintf_ex(buf, size, &kernel_opts, fmt, ap);
}

static int refk_vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    return ref_vscnprintf_ex(buf, size, &kernel_opts, fmt, ap);
}

const struct scn_target scn_target_ref = {
    .name = "ref", .version = ref_version, .dialect = SCN_DIALECT_ISO,
    .vsnprintf = ref_vsnprintf, .vscnprintf = ref_vscnprintf, .where = "in-process",
};

const struct scn_target scn_target_ref_kernel = {
    .name = "ref-kernel", .version = ref_version, .dialect = SCN_DIALECT_KERNEL,
    .vsnprintf = refk_vsnprintf, .vscnprintf = refk_vscnprintf, .where = "in-process",
};
