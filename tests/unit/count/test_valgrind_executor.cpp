// The Executor of the runs under Valgrind (count/valgrind_executor.hpp) over a scripted one: no
// Valgrind runs, so what it makes of runs that failed, or left no count, and whose clock it keeps.
#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include "count/valgrind_executor.hpp"

using namespace perfduel;

namespace {

// Ends every run as `ending` says, one scripted second later, and writes no file.
class ScriptedEnding final : public Executor {
 public:
  explicit ScriptedEnding(RunResult ending) : m_ending(std::move(ending)) {}
  RunResult run(const CommandSpec& /*command*/, const RunLimits& /*limits*/) override {
    m_now += 1;
    return m_ending;
  }
  double now_seconds() override { return m_now; }

 private:
  RunResult m_ending;
  double m_now = 41;
};

RunResult ending(int exit_code, std::string err) {
  RunResult run;
  run.status = RunStatus::exited;
  run.exit_code = exit_code;
  run.err = std::move(err);
  return run;
}

}  // namespace

TEST_CASE("a whole process that left no cachegrind output could not be counted", "[valgrind]") {
  ScriptedEnding inner(ending(0, "the program's stderr"));
  ValgrindExecutor valgrind(inner, "/usr/bin/valgrind", CacheSimulation::off);
  const RunResult result = valgrind.run(CommandSpec{{"true"}, Launch::shell, {}, {}}, {});
  CHECK(result.status == RunStatus::failed_to_count);
  CHECK(result.error == "valgrind wrote no cachegrind output; its log: ");
  CHECK(result.err.empty());
  CHECK(valgrind.now_seconds() == 42);  // the inner executor's clock
}

TEST_CASE("a whole process that failed under Valgrind is returned as it failed", "[valgrind]") {
  ScriptedEnding inner(ending(2, "the program's stderr"));
  ValgrindExecutor valgrind(inner, "/usr/bin/valgrind", CacheSimulation::on);
  const RunResult result = valgrind.run(CommandSpec{{"true"}, Launch::shell, {}, {}}, {});
  CHECK(result.status == RunStatus::exited);
  CHECK(result.exit_code == 2);
  CHECK(result.err == "the program's stderr");
  CHECK(result.error.empty());
}
