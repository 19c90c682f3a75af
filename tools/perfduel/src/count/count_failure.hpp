#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "run/executor.hpp"

// How a run under Valgrind that gave no counts is reported, whatever counted it (cachegrind for
// a whole process, callgrind for each benchmark of a suite): the end of Valgrind's own log goes
// with it, as that is where Valgrind says what went wrong.
namespace perfduel {

// The lines of Valgrind's log a failure shows.
constexpr std::size_t k_valgrind_log_lines = 10;

// `run`, which failed under Valgrind (it did not exit with 0), with the end of Valgrind's `log`
// after its stderr (a program Valgrind cannot run, an unsupported instruction); nothing is
// added when the log is empty.
RunResult with_valgrind_log(RunResult run, std::string_view log);

// `run`, which ran to its end under Valgrind but whose counts could not be read for `problem`:
// status failed_to_count, `problem` as its error and the end of Valgrind's `log` as its stderr.
RunResult count_failed(RunResult run, std::string problem, std::string_view log);

}  // namespace perfduel
