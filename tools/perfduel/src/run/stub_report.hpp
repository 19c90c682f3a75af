#pragma once

#include <chrono>
#include <optional>

#include <sys/types.h>

// What perfduel-exec (src/exec_stub.cpp), the stub that starts each run, tells the executor
// once it has started the run.
namespace perfduel {

// The started run's pid, when it started, and the exec's errno.
struct StubReport {
  pid_t pid = 0;
  std::chrono::steady_clock::time_point start;
  int exec_errno = 0;
};

// Reads perfduel-exec's line "PID START_NS EXEC_ERRNO" from `fd`; none when it wrote nothing
// or something else.
std::optional<StubReport> read_stub_report(int fd);

}  // namespace perfduel
