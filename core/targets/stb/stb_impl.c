/* stb_sprintf.h's implementation (Debian's libstb-dev), in its own object:
 * third-party code, compiled without the project's warnings
 * (CMakeLists.txt). The names keep their stbsp_ prefix. */
#define STB_SPRINTF_IMPLEMENTATION
/* stb copies literal text 4 bytes at a time through a uint32 pointer into
 * the caller's buffer wherever it starts (stb_sprintf.h, the loop after
 * schk2), an access C leaves undefined when the buffer is not 4-aligned and
 * x86 performs; UBSan's alignment check stops every campaign worker there
 * (the buffer of a size-N call ends at a guard, so it starts anywhere), and
 * the campaign spends its time restarting. STB_SPRINTF_NOUNALIGNED is stb's
 * own switch for that loop: the same bytes, stored one at a time when the
 * buffer is not aligned; every other path is the default build's. */
#define STB_SPRINTF_NOUNALIGNED
#include <stb/stb_sprintf.h>
