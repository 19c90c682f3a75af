#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "util/expected.hpp"

// Where the programs a run starts are found: the benchmark's own (as the child would find it)
// and perfduel-exec, the stub that starts each run.
namespace perfduel {

// perfduel-exec beside the running program (build tree) or in ../libexec/perfduel (install
// tree); empty when neither exists. `searched` receives the places looked at.
std::filesystem::path find_exec_stub(std::string& searched);

// The file `name` beside the running program (build tree) or in ../libexec/perfduel (install
// tree), as find_exec_stub looks (libperfduel-alloc.so, count/allocation_counts.hpp); empty when
// neither exists. `searched` receives the places looked at.
std::filesystem::path find_helper(std::string_view name, std::string& searched);

// The absolute path of `program` as the child would find it: searched on PATH when it has
// no slash, resolved against `working_directory` otherwise. The error says what is wrong
// (not found, not executable).
util::Expected<std::filesystem::path> resolve_program(const std::string& program,
                                                      const std::filesystem::path& working_directory);

// Programs resolved as resolve_program does, once per working directory and name: a PATH lookup
// and file checks once per command, not once per run.
class ProgramPaths {
 public:
  // The absolute path of `program` started in `working_directory` (resolve_program).
  util::Expected<std::filesystem::path> resolve(const std::string& program,
                                                const std::filesystem::path& working_directory);

 private:
  std::map<std::string, std::filesystem::path> m_resolved;  // working directory + program → path
};

}  // namespace perfduel
