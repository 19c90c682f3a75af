// Counting each benchmark of a Google Benchmark suite under callgrind
// (count/benchmark_counts.hpp): the configuration that asks for it, the driver's failures with a
// scripted executor (its scripted clock gives the suite's wall time), and reading the counts as
// metrics. The callgrind runs themselves are in the CLI test gbench_counted_per_benchmark; the
// count per iteration is in test_benchmark_count.cpp, the commands in test_callgrind_command.cpp.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "count/benchmark_counts.hpp"
#include "duel/metric_expansion.hpp"
#include "duel/run_plan.hpp"
#include "run/metric_extractor.hpp"
#include "support/config_helpers.hpp"
#include "util/file.hpp"

using namespace perfduel;
using perfduel::testing::metric;
using perfduel::testing::parse_gate;

namespace {

// A suite that lists BM_a and BM_b and whose counting processes end as `counting` says, each
// run taking one scripted second: no processes, no callgrind, no timing.
class ScriptedSuite final : public Executor {
 public:
  explicit ScriptedSuite(RunResult counting) : m_counting(std::move(counting)) {}

  RunResult run(const CommandSpec& command, const RunLimits& /*limits*/) override {
    m_now += 1;
    if (command.argv.back() == "--benchmark_list_tests=true") {
      RunResult listed;
      listed.status = RunStatus::exited;
      listed.exit_code = 0;
      listed.out = "BM_a\nBM_b\n";
      return listed;
    }
    return m_counting;
  }
  double now_seconds() override { return m_now; }

 private:
  RunResult m_counting;
  double m_now = 100;
};

// A private directory for a suite's files, with Valgrind's log of the first process in it.
class CountingDirectory {
 public:
  CountingDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "perfduel-counts-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    m_path = pattern;
    REQUIRE(
        util::write_file_atomically(m_path / "valgrind.log.0", "==7== Callgrind\n==7== it ended\n").empty());
  }
  CountingDirectory(const CountingDirectory&) = delete;
  CountingDirectory& operator=(const CountingDirectory&) = delete;
  ~CountingDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  SuiteCounting counting() const {
    return {"/work/bench", "/usr/bin/valgrind", CacheSimulation::off, m_path, 250, {}};
  }

 private:
  std::filesystem::path m_path;
};

CommandSpec bench_command() {
  CommandSpec command;
  command.argv = {"./bench"};
  return command;
}

}  // namespace

TEST_CASE("a suite's process that fails is returned as it failed, naming its benchmark, with Valgrind's log",
          "[benchmark_counts]") {
  RunResult failed;
  failed.status = RunStatus::exited;
  failed.exit_code = 3;
  failed.err = "-- LOG(2): Running BM_a for 1\nboom\n";
  ScriptedSuite executor(failed);
  const CountingDirectory directory;
  const RunResult result = count_google_benchmarks(executor, bench_command(), directory.counting(), {});
  CHECK(result.status == RunStatus::exited);
  CHECK(result.exit_code == 3);
  CHECK(result.err == "benchmark \"BM_a\" under callgrind:\nboom\n\n==7== Callgrind\n==7== it ended");
  CHECK(result.wall_seconds == 3);  // the listing and two counting processes, by the scripted clock
}

TEST_CASE("a suite whose counts cannot be read failed to count, not to start", "[benchmark_counts]") {
  RunResult ran;
  ran.status = RunStatus::exited;
  ran.exit_code = 0;
  ran.out = R"({"context": {}, "benchmarks": []})";
  ScriptedSuite executor(ran);
  const CountingDirectory directory;
  const RunResult result = count_google_benchmarks(executor, bench_command(), directory.counting(), {});
  CHECK(result.status == RunStatus::failed_to_count);
  CHECK(result.error == "benchmark \"BM_a\": its run printed no JSON entry for it");
  CHECK(result.err == "==7== Callgrind\n==7== it ended");
  CHECK(result.out == ran.out);
  CHECK(result.wall_seconds == 3);
}

TEST_CASE("google_benchmark with valgrind: one counted metric per benchmark", "[benchmark_counts][config]") {
  const Config config = parse_gate(R"(metrics:
  insns: {google_benchmark: "BM_*", valgrind: instructions}
  est: {google_benchmark: BM_Sort/8, valgrind: cycles, gate: false}
)");
  const auto& insns = metric(config, "insns");
  CHECK(insns.source == MetricSource::valgrind);
  CHECK(insns.framework == BenchmarkFramework::google_benchmark);
  CHECK(insns.event == CountedEvent::instructions);
  CHECK(insns.benchmark == "BM_*");
  CHECK(insns.unit == "insn/iter");
  CHECK(insns.tolerance == Approx(0.001));
  CHECK(is_benchmark_pattern(insns));
  CHECK(metric(config, "est").unit == "cycles/iter");
  CHECK_FALSE(is_benchmark_pattern(metric(config, "est")));
  const RunPlan plan = plan_runs(config);
  CHECK(plan.valgrind);
  CHECK_FALSE(plan.plain);
  CHECK(plan.framework == BenchmarkFramework::google_benchmark);
  CHECK(plan.cache == CacheSimulation::on);
}

TEST_CASE("google_benchmark with valgrind: what does not apply", "[benchmark_counts][config]") {
  CHECK_THROWS_WITH(
      parse_gate(
          "metrics:\n  i:\n    google_benchmark: '*'\n    valgrind: instructions\n    field: cpu_time\n"),
      "gate.yaml:5: \"field\" does not apply to a benchmark counted by valgrind (it reads the count)");
  CHECK_THROWS_WITH(
      parse_gate(
          "metrics:\n  i:\n    google_benchmark: '*'\n    valgrind: instructions\n    repetitions: best\n"),
      "gate.yaml:5: \"repetitions\" does not apply to a benchmark counted by valgrind (a count does not "
      "vary)");
  const Config mixed = parse_gate(
      "metrics:\n  i: {google_benchmark: '*', valgrind: instructions}\n  w: {valgrind: instructions}\n");
  CHECK_THROWS_WITH(
      check_run_plan(mixed, plan_runs(mixed)),
      "gate.yaml: metric \"w\": valgrind counts either each benchmark (with google_benchmark or catch2) "
      "or the whole process, not both in one duel; drop one of them");
}

TEST_CASE("counts per benchmark are read as metrics; what was not counted is set aside",
          "[benchmark_counts]") {
  const Config config = parse_gate("metrics:\n  insns: {google_benchmark: 'BM_*', valgrind: instructions}\n");
  RunResult run;
  run.status = RunStatus::exited;
  run.out = R"({"benchmarks": [{"name": "BM_a", "run_type": "iteration"}, {"name": "BM_t/threads:2"}]})";
  run.simulated_benchmarks["BM_a"][CountedEvent::instructions] = 1066.0;
  run.uncountable["BM_t/threads:2"] = "runs 2 threads";
  auto expansion = expand_metric_patterns(config.metrics, run.out, run.out);
  REQUIRE(expansion);
  REQUIRE(expansion->metrics.size() == 2);
  const MetricExtractor before(expansion->metrics);
  CHECK(before.extract(run).error() ==
        "metric \"insns/BM_t/threads:2\": benchmark \"BM_t/threads:2\" runs 2 threads");
  set_aside_uncountable(expansion.value(), run.uncountable, {});
  REQUIRE(expansion->metrics.size() == 1);
  CHECK(expansion->changes.uncountable ==
        std::map<std::string, std::string>{{"insns/BM_t/threads:2", "runs 2 threads"}});
  const MetricExtractor extractor(expansion->metrics);
  const auto values = extractor.extract(run);
  REQUIRE(values);
  CHECK(*values == std::vector<double>{1066.0});
}
