# PERFDUEL_PORTABLE: the driver of the release archive, for any x86-64 Linux with glibc 2.31 or
# newer (Debian 11, Ubuntu 20.04 and later). It needs nothing else from the system:
#   - libstdc++ and libgcc linked in (-static-libstdc++ -static-libgcc);
#   - Boost.Filesystem, yaml-cpp, SQLite, pugixml and OpenSSL's libcrypto from Debian's static
#     archives (.a); fmt, which Debian ships without one, header-only;
#   - libpq (PostgreSQL) loaded with dlopen when a postgresql:// history is opened, with an error
#     that names the package to install (src/history/libpq_loader.cpp);
#   - glibc's symbols at versions 2.31 has (cmake/glibc_compat.cpp: the few that Debian 12's glibc
#     2.36 would bind at a newer version).
# tools/release/build-release.sh builds it; tests/release checks the glibc versions it needs and
# runs it in roots with nothing else (docs/install.md).
# The glibc symbols bound above 2.31 by Debian 12's glibc, each sent to its wrapper in
# cmake/glibc_compat.cpp (the list there says why each).
set(PERFDUEL_GLIBC_WRAPPED
  __pthread_key_create dladdr dlclose dlerror dlopen dlsym pthread_condattr_setclock pthread_create
  pthread_detach pthread_getspecific pthread_join pthread_key_create pthread_key_delete
  pthread_mutex_trylock pthread_mutexattr_destroy pthread_mutexattr_init pthread_mutexattr_settype
  pthread_once pthread_rwlock_destroy pthread_rwlock_init pthread_rwlock_rdlock pthread_rwlock_unlock
  pthread_rwlock_wrlock pthread_setspecific pthread_sigmask
  stat fstat lstat fstatat stat64 fstat64 lstat64 __libc_single_threaded _dl_find_object arc4random
  close_range __libc_start_main)

function(perfduel_portable_executable target)
  if(PERFDUEL_PORTABLE)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
    foreach(symbol IN LISTS PERFDUEL_GLIBC_WRAPPED)
      target_link_options(${target} PRIVATE "LINKER:--wrap=${symbol}")
    endforeach()
    # Where glibc 2.31 keeps the pthread and dl functions (stubs since 2.34).
    target_link_options(${target} PRIVATE "LINKER:--push-state,--no-as-needed"
      -l:libpthread.so.0 -l:libdl.so.2 "LINKER:--pop-state")
    target_link_libraries(${target} PRIVATE perfduel_glibc_compat)
  endif()
endfunction()

if(NOT PERFDUEL_PORTABLE)
  return()
endif()
if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  message(FATAL_ERROR "PERFDUEL_PORTABLE: the portable driver is built on Linux (Debian 12)")
endif()

# perfduel_static(<variable> <name> <archive>): an imported static library of <archive>, found
# where the system keeps its libraries; <variable> names it.
function(perfduel_static variable name archive)
  find_library(PERFDUEL_STATIC_${name} NAMES ${archive} NO_CACHE)
  if(NOT PERFDUEL_STATIC_${name})
    message(FATAL_ERROR "PERFDUEL_PORTABLE: ${archive} not found (Debian: its -dev package)")
  endif()
  add_library(perfduel::static::${name} STATIC IMPORTED)
  set_target_properties(perfduel::static::${name} PROPERTIES IMPORTED_LOCATION "${PERFDUEL_STATIC_${name}}")
  set(${variable} perfduel::static::${name} PARENT_SCOPE)
endfunction()

perfduel_static(PERFDUEL_YAML_CPP yaml_cpp libyaml-cpp.a)
get_target_property(_perfduel_yaml_includes yaml-cpp INTERFACE_INCLUDE_DIRECTORIES)
if(_perfduel_yaml_includes)
  set_target_properties(${PERFDUEL_YAML_CPP} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_perfduel_yaml_includes}")
endif()
set(PERFDUEL_FMT fmt::fmt-header-only)
set(PERFDUEL_PUGIXML pugixml::static)
# SQLite's archive needs libm and libdl; libcrypto's, libdl and pthreads.
set_property(TARGET SQLite::SQLite3 APPEND PROPERTY INTERFACE_LINK_LIBRARIES m ${CMAKE_DL_LIBS} Threads::Threads)
set_property(TARGET OpenSSL::Crypto APPEND PROPERTY INTERFACE_LINK_LIBRARIES ${CMAKE_DL_LIBS} Threads::Threads)

# libpq's header only; the library is loaded on use.
add_library(perfduel_libpq_on_use INTERFACE)
target_include_directories(perfduel_libpq_on_use INTERFACE ${PostgreSQL_INCLUDE_DIRS})
target_link_libraries(perfduel_libpq_on_use INTERFACE ${CMAKE_DL_LIBS})
set(PERFDUEL_LIBPQ perfduel_libpq_on_use)
# (tools/perfduel/CMakeLists.txt compiles src/history/libpq_loader.cpp with PERFDUEL_LIBPQ_DLOPEN.)

# glibc 2.31's symbol versions (cmake/glibc_compat.cpp): objects, linked whole, so that the
# references from libstdc++'s and libgcc's archives (last on the link line) find them.
add_library(perfduel_glibc_compat OBJECT "${CMAKE_CURRENT_LIST_DIR}/glibc_compat.cpp")
