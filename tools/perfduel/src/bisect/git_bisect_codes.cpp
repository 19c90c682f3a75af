#include "bisect/git_bisect_codes.hpp"

#include <string_view>

namespace perfduel::bisect {

ExitCode git_bisect_exit_code(ExitCode code) {
  switch (code) {
    case ExitCode::pass:
    case ExitCode::regression:
    case ExitCode::interrupted:
    case ExitCode::git_bisect_skip:
    case ExitCode::git_bisect_abort:
      return code;
    case ExitCode::inconclusive:
    case ExitCode::benchmark_failed:
      return ExitCode::git_bisect_skip;
    case ExitCode::usage:
      return ExitCode::git_bisect_abort;
  }
  return ExitCode::git_bisect_abort;  // anything else must not pass for "bad"
}

bool asks_for_git_bisect_codes(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--exit-codes=git-bisect" ||
        (arg == "--exit-codes" && i + 1 < argc && argv[i + 1] == std::string_view("git-bisect"))) {
      return true;
    }
  }
  return false;
}

}  // namespace perfduel::bisect
