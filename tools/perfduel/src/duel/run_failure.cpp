#include "duel/run_failure.hpp"

#include <cstring>

#include <fmt/format.h>

#include "util/text.hpp"

namespace perfduel {

std::string describe_failure(const RunResult& run, double timeout_seconds) {
  switch (run.status) {
    case RunStatus::exited:
      return run.exit_code == 0 ? std::string() : fmt::format("exited with code {}", run.exit_code);
    case RunStatus::signaled:
      return fmt::format("was killed by signal {} ({})", run.signal, ::strsignal(run.signal));
    case RunStatus::timed_out:
      return fmt::format("timed out after {} and was killed (raise \"timeout\" in the config?)",
                         util::format_seconds(timeout_seconds));
    case RunStatus::failed_to_start:
      return fmt::format("could not be started: {}", run.error);
    case RunStatus::interrupted:
      return "was interrupted";
  }
  return "failed";
}

}  // namespace perfduel
