// The portable driver's glibc: Debian 12 builds it against glibc 2.36, which binds a few
// symbols at versions newer than 2.31 (Debian 11, Ubuntu 20.04). The link (cmake/Portable.cmake)
// sends every reference to those symbols here with `-Wl,--wrap=<symbol>`, and each wrapper uses a
// version glibc 2.31 has, which glibc 2.36 and later still export for old programs:
//   - functions moved from libpthread and libdl into libc in 2.34 (pthread_create, dlopen, ...):
//     the same functions at their GLIBC_2.2.5 versions, found in libpthread.so.0 and libdl.so.2
//     on 2.31 (the link names both) and in libc.so.6 since 2.34;
//   - stat, fstat, lstat and fstatat (2.33): the __xstat family they were macros of;
//   - __libc_single_threaded (2.32, libstdc++'s shortcut): "maybe threaded", always, which only
//     costs an atomic operation where libstdc++ would have skipped it;
//   - _dl_find_object (2.35, libgcc's unwinder): the same answer from dl_iterate_phdr (2.2.5);
//   - arc4random (2.36) and close_range (2.34): the system calls they are made of;
//   - __libc_start_main (2.34): its 2.2.5 version, handed the constructor runner that crt1.o
//     passed before 2.34 (the 2.34 one runs the constructors itself when handed none).
// tests/release/check_archive.sh reads the driver's symbol versions (objdump -T): none above 2.31.
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436  // Linux 5.9
#endif

// A wrapper that jumps to `symbol` at `version`: same arguments, same result, no prologue.
// (clang-format is kept off it: assembly text and symbol versions, not C++.)
// clang-format off
#define PERFDUEL_OLD_VERSION(symbol, version)                                                          \
  __asm__(".symver perfduel_old_" #symbol ", " #symbol "@" #version "\n"                             \
          ".globl __wrap_" #symbol "\n"                                                              \
          ".type __wrap_" #symbol ", @function\n"                                                    \
          "__wrap_" #symbol ":\n"                                                                    \
          "  jmp perfduel_old_" #symbol "@PLT\n"                                                     \
          ".size __wrap_" #symbol ", . - __wrap_" #symbol "\n");

// In libpthread.so.0 and libdl.so.2 before glibc 2.34, in libc.so.6 since (the list: the symbols
// `objdump -T` showed at 2.34 in a link without this file; cmake/Portable.cmake wraps the same).
PERFDUEL_OLD_VERSION(__pthread_key_create, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(dladdr, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(dlclose, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(dlerror, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(dlopen, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(dlsym, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_condattr_setclock, GLIBC_2.3.3)
PERFDUEL_OLD_VERSION(pthread_create, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_detach, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_getspecific, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_join, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_key_create, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_key_delete, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_mutex_trylock, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_mutexattr_destroy, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_mutexattr_init, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_mutexattr_settype, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_once, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_rwlock_destroy, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_rwlock_init, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_rwlock_rdlock, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_rwlock_unlock, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_rwlock_wrlock, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_setspecific, GLIBC_2.2.5)
PERFDUEL_OLD_VERSION(pthread_sigmask, GLIBC_2.2.5)
// clang-format on

extern "C" {

// --- the stat family: the __xstat functions of glibc before 2.33 (_STAT_VER 1 on x86-64) --------
int __xstat(int version, const char* path, struct stat* buf);
int __fxstat(int version, int fd, struct stat* buf);
int __lxstat(int version, const char* path, struct stat* buf);
int __fxstatat(int version, int dirfd, const char* path, struct stat* buf, int flags);
constexpr int k_stat_version = 1;

int __wrap_stat(const char* path, struct stat* buf) {
  return __xstat(k_stat_version, path, buf);
}
int __wrap_fstat(int fd, struct stat* buf) {
  return __fxstat(k_stat_version, fd, buf);
}
int __wrap_lstat(const char* path, struct stat* buf) {
  return __lxstat(k_stat_version, path, buf);
}
int __wrap_fstatat(int dirfd, const char* path, struct stat* buf, int flags) {
  return __fxstatat(k_stat_version, dirfd, path, buf, flags);
}
// x86-64's stat is stat64.
int __wrap_stat64(const char* path, struct stat* buf) {
  return __xstat(k_stat_version, path, buf);
}
int __wrap_fstat64(int fd, struct stat* buf) {
  return __fxstat(k_stat_version, fd, buf);
}
int __wrap_lstat64(const char* path, struct stat* buf) {
  return __lxstat(k_stat_version, path, buf);
}

// --- arc4random (2.36, std::random_device): the kernel's random bytes, as glibc's does -------
std::uint32_t __wrap_arc4random() {
  std::uint32_t value = 0;
  auto* bytes =
      reinterpret_cast<unsigned char*>(&value);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
  std::size_t got = 0;
  while (got < sizeof value) {
    const long n = syscall(SYS_getrandom, bytes + got, sizeof value - got, 0);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (errno != EINTR) {
      abort();  // as glibc's: no randomness is no answer
    }
  }
  return value;
}

// --- close_range (2.34, Boost.Process): the system call itself, ENOSYS before Linux 5.9 as
// glibc's -----------------------------------------------------------------------------------
int __wrap_close_range(unsigned int first, unsigned int last, int flags) {
  return static_cast<int>(syscall(SYS_close_range, first, last, flags));
}

// --- __libc_single_threaded: never claims a single thread ------------------------------------
char __wrap___libc_single_threaded = 0;  // NOLINT(readability-identifier-naming): glibc's name

// --- _dl_find_object, from dl_iterate_phdr ---------------------------------------------------
namespace {
struct FindObject {
  std::uintptr_t pc;
  struct dl_find_object* result;
  bool found;
};

int find_object(struct dl_phdr_info* info, std::size_t /*size*/, void* data) {
  auto* find = static_cast<FindObject*>(data);
  const ElfW(Phdr)* eh_frame = nullptr;
  bool contains = false;
  std::uintptr_t start = UINTPTR_MAX;
  std::uintptr_t end = 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& phdr = info->dlpi_phdr[i];
    if (phdr.p_type == PT_LOAD) {
      const std::uintptr_t begin = info->dlpi_addr + phdr.p_vaddr;
      start = begin < start ? begin : start;
      end = begin + phdr.p_memsz > end ? begin + phdr.p_memsz : end;
      contains = contains || (find->pc >= begin && find->pc < begin + phdr.p_memsz);
    } else if (phdr.p_type == PT_GNU_EH_FRAME) {
      eh_frame = &phdr;
    }
  }
  if (!contains) {
    return 0;
  }
  find->found = true;
  find->result->dlfo_flags = 0;
  find->result->dlfo_map_start = reinterpret_cast<void*>(start);  // NOLINT(performance-no-int-to-ptr)
  find->result->dlfo_map_end = reinterpret_cast<void*>(end);      // NOLINT(performance-no-int-to-ptr)
  find->result->dlfo_link_map = nullptr;
  find->result->dlfo_eh_frame =
      eh_frame == nullptr ? nullptr : reinterpret_cast<void*>(info->dlpi_addr + eh_frame->p_vaddr);  // NOLINT
  return 1;
}
}  // namespace

int __wrap__dl_find_object(void* pc, struct dl_find_object* result) {
  FindObject find{reinterpret_cast<std::uintptr_t>(pc), result, false};
  dl_iterate_phdr(find_object, &find);
  return find.found ? 0 : -1;
}

// --- __libc_start_main at 2.2.5, with the constructor runner crt1.o passed before 2.34 --------
using InitArrayEntry = void (*)(int, char**, char**);
extern InitArrayEntry __init_array_start[];  // the linker's: this executable's .init_array
extern InitArrayEntry __init_array_end[];
void _init();  // crti.o's: the executable's DT_INIT

namespace {
void run_constructors(int argc, char** argv, char** envp) {
  _init();
  for (InitArrayEntry* entry = __init_array_start; entry != __init_array_end; ++entry) {
    (*entry)(argc, argv, envp);
  }
}
}  // namespace

using MainFunction = int (*)(int, char**, char**);
int perfduel_old___libc_start_main(MainFunction main, int argc, char** argv,
                                   void (*init)(int, char**, char**), void (*fini)(), void (*rtld_fini)(),
                                   void* stack_end);
__asm__(".symver perfduel_old___libc_start_main, __libc_start_main@GLIBC_2.2.5");

int __wrap___libc_start_main(MainFunction main, int argc, char** argv, void (* /*init*/)(int, char**, char**),
                             void (*fini)(), void (*rtld_fini)(), void* stack_end) {
  return perfduel_old___libc_start_main(main, argc, argv, run_constructors, fini, rtld_fini, stack_end);
}

}  // extern "C"
