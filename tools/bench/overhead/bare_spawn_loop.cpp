// bare_spawn_loop: the floor for driver overhead. Runs a command N times with nothing but
// fork + execvp + wait4 and prints the mean wall time per run, so that perfduel's per-run
// cost can be compared with the cheapest possible spawn-and-wait loop
// (tools/bench/overhead.sh, docs/performance.md).
//
// Usage: bare_spawn_loop [--posix-spawn] N CMD [ARGS...]
// Prints one line: runs=N total_seconds=T mean_seconds=T/N
// --posix-spawn starts the command with posix_spawnp instead (glibc: clone(CLONE_VM |
// CLONE_VFORK), no page-table copy), to show what a cheaper launch could save.
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string_view>

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace {

// Starts `command` with fork + execvp; the child's pid, or -1.
pid_t start_fork(char** command) {
  const pid_t child = ::fork();
  if (child == 0) {
    ::execvp(command[0], command);
    std::fprintf(stderr, "bare_spawn_loop: %s: %s\n", command[0], std::strerror(errno));
    ::_exit(127);
  }
  return child;
}

// Starts `command` with posix_spawnp; the child's pid, or -1 with errno set.
pid_t start_posix_spawn(char** command) {
  pid_t child = -1;
  const int error = ::posix_spawnp(&child, command[0], nullptr, nullptr, command, environ);
  if (error != 0) {
    errno = error;
    return -1;
  }
  return child;
}

}  // namespace

int main(int argc, char** argv) {
  const bool posix_spawn = argc > 1 && std::string_view(argv[1]) == "--posix-spawn";
  if (posix_spawn) {
    --argc;
    ++argv;
  }
  int runs = 0;
  const std::string_view count = argc > 1 ? argv[1] : "";
  const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), runs);
  if (argc < 3 || ec != std::errc() || end != count.data() + count.size() || runs <= 0) {
    std::fprintf(stderr, "usage: bare_spawn_loop [--posix-spawn] N CMD [ARGS...]\n");
    return 2;
  }
  char** command = argv + 2;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) {
    const pid_t child = posix_spawn ? start_posix_spawn(command) : start_fork(command);
    if (child < 0) {
      std::fprintf(stderr, "bare_spawn_loop: cannot start %s: %s\n", command[0], std::strerror(errno));
      return 1;
    }
    int status = 0;
    rusage usage{};  // the driver reads rusage per run too, so the floor does as well
    while (::wait4(child, &status, 0, &usage) < 0) {
      if (errno != EINTR) {
        std::fprintf(stderr, "bare_spawn_loop: wait4: %s\n", std::strerror(errno));
        return 1;
      }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "bare_spawn_loop: run %d of %s failed (status %d)\n", i + 1, command[0], status);
      return 1;
    }
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("runs=%d total_seconds=%.6f mean_seconds=%.9f\n", runs, total, total / runs);
  return 0;
}
