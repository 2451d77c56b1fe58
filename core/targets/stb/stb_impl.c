/* stb_sprintf.h's implementation (Debian's libstb-dev), in its own object:
 * third-party code, compiled without the project's warnings
 * (CMakeLists.txt). The names keep their stbsp_ prefix. */
#define STB_SPRINTF_IMPLEMENTATION
#include <stb/stb_sprintf.h>
