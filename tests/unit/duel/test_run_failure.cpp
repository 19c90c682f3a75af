// How a duel's run failed, in words (duel/run_failure.hpp), and whether running it again could
// help: a run that could not start, or whose counts could not be read, would fail again.
#include <string>

#include <catch2/catch.hpp>

#include "duel/run_failure.hpp"

using namespace perfduel;

namespace {

RunResult ended(RunStatus status, std::string error = {}) {
  RunResult run;
  run.status = status;
  run.error = std::move(error);
  return run;
}

}  // namespace

TEST_CASE("a run's failure in words, one status one message", "[duel]") {
  RunResult exited = ended(RunStatus::exited);
  exited.exit_code = 0;
  CHECK(describe_failure(exited, 60).empty());
  exited.exit_code = 2;
  CHECK(describe_failure(exited, 60) == "exited with code 2");
  CHECK(describe_failure(ended(RunStatus::failed_to_start, "./bench: No such file or directory"), 60) ==
        "could not be started: ./bench: No such file or directory");
  CHECK(describe_failure(
            ended(RunStatus::failed_to_count, "cachegrind counted no instructions (no Ir event)"), 60) ==
        "could not be counted: cachegrind counted no instructions (no Ir event)");
  CHECK(describe_failure(ended(RunStatus::interrupted), 60) == "was interrupted");
}

TEST_CASE("a run that could not start or could not be counted is not retried", "[duel]") {
  CHECK(fails_again(RunStatus::failed_to_start));
  CHECK(fails_again(RunStatus::failed_to_count));
  CHECK_FALSE(fails_again(RunStatus::exited));
  CHECK_FALSE(fails_again(RunStatus::signaled));
  CHECK_FALSE(fails_again(RunStatus::timed_out));
  CHECK_FALSE(fails_again(RunStatus::interrupted));
}
