#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "run/executor.hpp"
#include "util/expected.hpp"

namespace perfduel {

// Runs commands as real child processes through Boost.Process v2: argv directly (or
// /bin/sh -c with Launch::shell), a new process group, CPU affinity set in the child before
// exec, stdout and stderr captured through pipes, resource usage from wait4().
class ProcessExecutor final : public Executor {
 public:
  RunResult run(const CommandSpec& command, const RunLimits& limits) override;

 private:
  std::map<std::string, std::string> m_resolved;  // working directory + program → absolute path
};

// The absolute path of `program` as the child would find it: searched on PATH when it has
// no slash, resolved against `working_directory` otherwise. The error says what is wrong
// (not found, not executable).
util::Expected<std::filesystem::path> resolve_program(const std::string& program,
                                                      const std::filesystem::path& working_directory);

}  // namespace perfduel
