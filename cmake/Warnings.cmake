# Linked PRIVATE by every perfduel target, so consumers never inherit our warning flags.
add_library(perfduel_warnings INTERFACE)
target_compile_options(perfduel_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual
  # A cast that raises the alignment a pointer needs, on every target (GCC's plain form warns
  # only where the target traps on a misaligned load; clang's is this one).
  $<IF:$<CXX_COMPILER_ID:GNU>,-Wcast-align=strict,-Wcast-align>
  -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
option(PERFDUEL_WERROR "Treat compiler warnings as errors" OFF)
if(PERFDUEL_WERROR)
  target_compile_options(perfduel_warnings INTERFACE -Werror)
endif()
