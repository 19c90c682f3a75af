// perfduel-exec: starts one benchmark run from a small process, so that the run's max RSS is
// its own. On Linux, exec records the replaced address space's peak as the new program's
// starting max RSS; a program started by perfduel itself would report at least perfduel's
// own peak (several MiB). This stub is small, so that floor drops to about what any
// libc program needs anyway.
//
// Usage: perfduel-exec [--barrier FD] REPORT_FD PROGRAM [ARG...]
// With --barrier, first waits until FD reaches end of file (every writer closed it): the
// caller starts two runs this way and releases both at once by closing the one pipe's write
// end (order: duet). Then starts PROGRAM (vfork + execv, environment, working directory, process group and
// CPU affinity inherited), writes "PID START_NS EXEC_ERRNO\n" to REPORT_FD (START_NS: the CLOCK_MONOTONIC
// time just before the start, in nanoseconds; EXEC_ERRNO 0 when the exec succeeded) and exits without
// waiting: the caller is a child subreaper, so PROGRAM becomes its child and it reaps it with wait4 for the
// run's times and max RSS. Only libc is used, to keep this process small.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <fcntl.h>
#include <unistd.h>

namespace {

// The open file descriptor `text` names, marked close-on-exec so that PROGRAM does not
// inherit it; -1 when it is not one.
int descriptor(const char* text) {
  char* end = nullptr;
  const long number = std::strtol(text, &end, 10);
  const bool is_number = end != text && *end == '\0' && number >= 0 && number < 1L << 30;
  const int fd = is_number ? static_cast<int>(number) : -1;
  return fd >= 0 && ::fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 ? fd : -1;
}

}  // namespace

int main(int argc, char** argv) {
  // argv itself stays untouched: vfork below may clobber what is changed before it.
  const bool with_barrier = argc >= 3 && std::strcmp(argv[1], "--barrier") == 0;
  const int first = with_barrier ? 3 : 1;  // REPORT_FD's index
  const int barrier_fd = with_barrier ? descriptor(argv[2]) : -1;
  if (with_barrier && barrier_fd < 0) {
    std::fputs("perfduel-exec: the --barrier FD is not an open file descriptor\n", stderr);
    return 2;
  }
  if (argc < first + 2) {
    std::fputs("usage: perfduel-exec [--barrier FD] REPORT_FD PROGRAM [ARG...]\n", stderr);
    return 2;
  }
  const int report_fd = descriptor(argv[first]);
  if (report_fd < 0) {
    std::fputs("perfduel-exec: REPORT_FD is not an open file descriptor\n", stderr);
    return 2;
  }
  if (barrier_fd >= 0) {
    // Bytes written are ignored; end of file releases the run, and so does a read error.
    char byte = 0;
    for (;;) {
      const auto count = ::read(barrier_fd, &byte, 1);
      if (count == 0 || (count < 0 && errno != EINTR)) {
        break;
      }
    }
    ::close(barrier_fd);
  }
  timespec start{};
  ::clock_gettime(CLOCK_MONOTONIC, &start);
  // The vfork child shares this memory until it execs or exits: it may only store errno here.
  volatile int exec_errno = 0;
  const pid_t pid = ::vfork();
  if (pid == 0) {
    ::execv(argv[first + 1], argv + first + 1);
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
