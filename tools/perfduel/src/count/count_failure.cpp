#include "count/count_failure.hpp"

#include <utility>

#include "util/text.hpp"

namespace perfduel {

RunResult with_valgrind_log(RunResult run, std::string_view log) {
  if (!log.empty()) {
    run.err += "\n" + util::tail_lines(log, k_valgrind_log_lines);
  }
  return run;
}

RunResult count_failed(RunResult run, std::string problem, std::string_view log) {
  run.status = RunStatus::failed_to_count;
  run.error = std::move(problem);
  run.err = util::tail_lines(log, k_valgrind_log_lines);
  return run;
}

}  // namespace perfduel
