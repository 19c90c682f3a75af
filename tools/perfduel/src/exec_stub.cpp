// perfduel-exec: starts one benchmark run from a small process, so that the run's max RSS is
// its own. On Linux, exec records the replaced address space's peak as the new program's
// starting max RSS; a program started by perfduel itself would report at least perfduel's
// own peak (several MiB). This stub is small, so that floor drops to about what any
// libc program needs anyway.
//
// Usage: perfduel-exec REPORT_FD PROGRAM [ARG...]
// Starts PROGRAM (vfork + execv, environment, working directory, process group and CPU
// affinity inherited), writes "PID START_NS EXEC_ERRNO\n" to REPORT_FD (START_NS: the
// CLOCK_MONOTONIC time just before the start, in nanoseconds; EXEC_ERRNO 0 when the exec
// succeeded) and exits without waiting: the caller is a child subreaper, so PROGRAM becomes
// its child and it reaps it with wait4 for the run's times and max RSS. Only libc is used,
// to keep this process small.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <fcntl.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fputs("usage: perfduel-exec REPORT_FD PROGRAM [ARG...]\n", stderr);
    return 2;
  }
  char* end = nullptr;
  const long report_fd_number = std::strtol(argv[1], &end, 10);
  const bool is_number =
      end != argv[1] && *end == '\0' && report_fd_number >= 0 && report_fd_number < 1L << 30;
  const int report_fd = is_number ? static_cast<int>(report_fd_number) : -1;
  if (report_fd < 0 || ::fcntl(report_fd, F_SETFD, FD_CLOEXEC) != 0) {
    std::fputs("perfduel-exec: REPORT_FD is not an open file descriptor\n", stderr);
    return 2;
  }
  timespec start{};
  ::clock_gettime(CLOCK_MONOTONIC, &start);
  // The vfork child shares this memory until it execs or exits: it may only store errno here.
  volatile int exec_errno = 0;
  const pid_t pid = ::vfork();
  if (pid == 0) {
    ::execv(argv[2], argv + 2);
    exec_errno = errno;
    ::_exit(127);
  }
  const long long start_ns = static_cast<long long>(start.tv_sec) * 1000000000LL + start.tv_nsec;
  char line[96];
  const int length = std::snprintf(line, sizeof line, "%d %lld %d\n", pid < 0 ? 0 : static_cast<int>(pid),
                                   start_ns, pid < 0 ? errno : static_cast<int>(exec_errno));
  if (length <= 0 || ::write(report_fd, line, static_cast<std::size_t>(length)) != length) {
    return 3;
  }
  return 0;
}
