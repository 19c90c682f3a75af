// The duel's Valgrind runs with a scripted executor (duel/duel.hpp): a duel that only counts,
// and one whose rounds make plain runs first, then the Valgrind runs.
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "count/valgrind.hpp"
#include "duel/duel.hpp"
#include "duel/run_plan.hpp"

using namespace perfduel;

namespace {

// Plays both executors: plain runs report wall times, simulated runs instruction counts
// (baseline 1,000,000, candidate `candidate_count`), and every call is logged.
class SimulatingExecutor : public Executor {
 public:
  SimulatingExecutor(std::vector<std::string>& log, std::string kind, double candidate_count = 1e6)
      : m_log(log), m_kind(std::move(kind)), m_candidate_count(candidate_count) {}

  RunResult run(const CommandSpec& command, const RunLimits& limits) override {
    m_log.push_back(m_kind + " " + command.argv.at(0));
    RunResult result;
    result.status = RunStatus::exited;
    result.exit_code = 0;
    result.wall_seconds = 0.1;
    result.user_seconds = 0.1;
    result.system_seconds = 0.01;
    result.max_rss_bytes = 1 << 20;
    if (m_kind == "valgrind") {
      result.wall_seconds = 4;  // the scripted Valgrind run takes long; the timeout is stretched
      CHECK(limits.counters.empty());
      result.simulated[CountedEvent::instructions] =
          command.argv.at(0) == "baseline" ? 1e6 : m_candidate_count;
    }
    m_now += result.wall_seconds;
    return result;
  }

  // The scripted clock: the wall time of the runs made so far.
  double now_seconds() override { return m_now; }

 private:
  std::vector<std::string>& m_log;
  std::string m_kind;
  double m_candidate_count;
  double m_now = 0;
};

Config valgrind_duel_config(const std::string& metrics) {
  Config config = parse_config("order: abba\nmetrics:\n" + metrics, "gate.yaml");
  config.baseline = CommandSpec{{"baseline"}, Launch::direct, {}, {}};
  config.candidate = CommandSpec{{"candidate"}, Launch::direct, {}, {}};
  return config;
}

}  // namespace

TEST_CASE("valgrind-only duels make no plain runs and stop after 3 rounds", "[valgrind][duel]") {
  std::vector<std::string> log;
  SimulatingExecutor plain(log, "plain");
  SimulatingExecutor valgrind(log, "valgrind", 1.01e6);
  const Config config = valgrind_duel_config("  insns: {valgrind: instructions}\n");
  const auto outcome = run_duel(config, plain, &valgrind, 1, nullptr);
  CHECK(outcome.end == DuelEnd::decided);
  CHECK(outcome.analysis.verdict == Verdict::regression);
  CHECK(outcome.analysis.measured_rounds == 3);
  CHECK(log == std::vector<std::string>{"valgrind baseline", "valgrind candidate", "valgrind candidate",
                                        "valgrind baseline", "valgrind baseline", "valgrind candidate"});
  CHECK_THROWS_WITH(run_duel(config, plain, nullptr, 1, nullptr),
                    "valgrind metrics need a Valgrind executor");
}

TEST_CASE("with plain metrics gated, a round makes the plain runs first, then the Valgrind runs",
          "[valgrind][duel]") {
  std::vector<std::string> log;
  SimulatingExecutor plain(log, "plain");
  SimulatingExecutor valgrind(log, "valgrind");
  Config config = valgrind_duel_config("  wall_time: {gate: true}\n  insns: {valgrind: instructions}\n");
  config.warmup = 0;
  config.min_rounds = 2;
  config.max_rounds = 2;
  const auto outcome = run_duel(config, plain, &valgrind, 1, nullptr);
  CHECK(log == std::vector<std::string>{"plain baseline", "plain candidate", "valgrind baseline",
                                        "valgrind candidate", "plain candidate", "plain baseline",
                                        "valgrind candidate", "valgrind baseline"});
  REQUIRE(outcome.runs.size() == 4);
  // Every record has both the plain run's wall time and the Valgrind run's count.
  CHECK(outcome.runs[0].values.front() == 0.1);
  CHECK(outcome.runs[0].values.back() == 1e6);
}

TEST_CASE("a Valgrind run whose counts cannot be read could not be counted, and is not retried",
          "[valgrind][duel]") {
  std::vector<std::string> log;
  SimulatingExecutor plain(log, "plain");
  // Valgrind's executor as it reports a run that ended but left no count (count/count_failure.hpp).
  class UncountedExecutor final : public Executor {
   public:
    RunResult run(const CommandSpec& /*command*/, const RunLimits& /*limits*/) override {
      RunResult result;
      result.status = RunStatus::failed_to_count;
      result.error = "cachegrind counted no instructions (no Ir event)";
      result.err = "==12== Cachegrind, a high-precision tracing profiler";
      return result;
    }
  } valgrind;
  Config config = valgrind_duel_config("  insns: {valgrind: instructions}\n");
  config.warmup = 0;
  config.retries = 2;
  const auto outcome = run_duel(config, plain, &valgrind, 1, nullptr);
  CHECK(outcome.end == DuelEnd::benchmark_failed);
  CHECK(
      outcome.failure ==
      "baseline run under valgrind in round 1: could not be counted: cachegrind counted no instructions (no "
      "Ir event)");
  CHECK(outcome.failure_stderr == "==12== Cachegrind, a high-precision tracing profiler");
  CHECK(outcome.retried.empty());
}
