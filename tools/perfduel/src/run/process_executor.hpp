#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "run/executor.hpp"
#include "run/program_path.hpp"
#include "util/expected.hpp"

namespace perfduel {

// Runs commands as real child processes through Boost.Process v2: argv directly (or
// /bin/sh -c with Launch::shell), a new process group, CPU affinity set in the child before
// exec, stdout and stderr captured through pipes, resource usage from wait4(). This process
// becomes a child subreaper, so whatever a run leaves behind, even outside its process group
// (a daemon), becomes our child and is killed when the run ends (RunResult::left_behind); a
// run started directly gets SIGKILL when this process dies, even by SIGKILL.
class ProcessExecutor final : public Executor {
 public:
  ProcessExecutor();
  // Starts every run through `exec_stub` (perfduel-exec, see src/exec_stub.cpp), so that its
  // max RSS is its own and not at least this process's peak. Costs one more process start
  // per run, outside the timing.
  explicit ProcessExecutor(std::filesystem::path exec_stub);

  RunResult run(const CommandSpec& command, const RunLimits& limits) override;

  // Both runs are spawned and pinned, then released by one barrier: each perfduel-exec stub
  // waits for the end of file of one pipe, which closes once both are started. Without the
  // stub (the default constructor) they are started back to back, a spawn apart.
  std::array<RunResult, 2> run_together(const std::array<const CommandSpec*, 2>& commands,
                                        const std::array<RunLimits, 2>& limits) override;

 private:
  ProgramPaths m_programs;            // each command's program, resolved once
  std::filesystem::path m_exec_stub;  // empty: runs start directly
};

}  // namespace perfduel
