// How a run under Valgrind that gave no counts is reported (count/count_failure.hpp): one that
// failed keeps its status, with the end of Valgrind's log after its stderr; one whose counts
// cannot be read failed to count, with that log end as its stderr.
#include <string>

#include <catch2/catch.hpp>

#include "count/count_failure.hpp"

using namespace perfduel;

namespace {

// Valgrind's log of 12 lines, "==1== line 1" to "==1== line 12".
std::string twelve_line_log() {
  std::string log;
  for (int line = 1; line <= 12; ++line) {
    log += "==1== line " + std::to_string(line) + "\n";
  }
  return log;
}

}  // namespace

TEST_CASE("a run that failed under Valgrind keeps how it failed, and shows the end of Valgrind's log",
          "[valgrind]") {
  RunResult run;
  run.status = RunStatus::signaled;
  run.signal = 4;
  run.err = "the program's own complaint";
  const RunResult failed = with_valgrind_log(run, twelve_line_log());
  CHECK(failed.status == RunStatus::signaled);
  CHECK(failed.signal == 4);
  CHECK(failed.err.starts_with("the program's own complaint\n==1== line 3\n"));
  CHECK(failed.err.ends_with("==1== line 12"));
  CHECK(with_valgrind_log(run, "").err == "the program's own complaint");
}

TEST_CASE("a run whose counts cannot be read failed to count, not to start", "[valgrind]") {
  RunResult run;
  run.status = RunStatus::exited;
  run.exit_code = 0;
  run.out = "the program's output";
  run.err = "the program's own stderr";
  const RunResult failed = count_failed(run, "no \"summary:\" line (did the program end normally?)",
                                        "==1== Cachegrind\n==1== Command: ./bench\n");
  CHECK(failed.status == RunStatus::failed_to_count);
  CHECK(failed.error == "no \"summary:\" line (did the program end normally?)");
  CHECK(failed.err == "==1== Cachegrind\n==1== Command: ./bench");
  CHECK(failed.out == "the program's output");
  CHECK(count_failed(run, "why", twelve_line_log()).err.starts_with("==1== line 3\n"));
}
