# Linked PRIVATE by every perfduel target, so consumers never inherit our warning flags.
add_library(perfduel_warnings INTERFACE)
target_compile_options(perfduel_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
  -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
option(PERFDUEL_WERROR "Treat compiler warnings as errors" OFF)
if(PERFDUEL_WERROR)
  target_compile_options(perfduel_warnings INTERFACE -Werror)
endif()
