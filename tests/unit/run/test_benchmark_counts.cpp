// Counting each benchmark of a Google Benchmark suite under callgrind
// (run/benchmark_counts.hpp): the configuration that asks for it, the command each benchmark
// runs with, the count per iteration from its dumps and JSON, the benchmarks that cannot be
// counted, and reading the counts as metrics. The callgrind runs themselves are in the CLI
// test gbench_counted_per_benchmark.
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/metric_expansion.hpp"
#include "duel/run_plan.hpp"
#include "run/benchmark_counts.hpp"
#include "run/gbench_results.hpp"
#include "run/metric_extractor.hpp"
#include "support/config_helpers.hpp"

using namespace perfduel;
using perfduel::testing::metric;
using perfduel::testing::parse_gate;

namespace {

constexpr const char* k_loop_opened = "--dump-before=benchmark::State::StartKeepRunning()";
constexpr const char* k_loop_closed = "--dump-before=benchmark::State::FinishKeepRunning()";

// Google Benchmark 1.7.1's JSON for one run of `name` with `iterations` and `threads`, read.
GbenchResults gbench_json(const std::string& name, int iterations, int threads = 1) {
  const auto reading = read_gbench_results(fmt::format(
      R"({{"context": {{"library_version": "v1.7.1"}}, "benchmarks": [{{"name": "{}", "run_type": "iteration",
       "threads": {}, "iterations": {}, "real_time": 1.0, "cpu_time": 1.0, "time_unit": "ns"}}]}})",
      name, threads, iterations));
  REQUIRE(reading.fault == GbenchFault::none);
  return reading.results;
}

// Dumps of a run: start-up, then runs of 1, 10 and `iterations` iterations of `per_iteration`
// instructions, each with the loop's entry and exit (250).
std::vector<CallgrindDump> gbench_dumps(double per_iteration, int iterations) {
  std::vector<CallgrindDump> dumps{{k_loop_opened, {{"Ir", 2.9e6}}, {}}};
  for (const int n : {1, 10, iterations}) {
    dumps.push_back({k_loop_closed, {{"Ir", 250 + n * per_iteration}}, {}});
    dumps.push_back({k_loop_opened, {{"Ir", 2305}}, {}});
  }
  dumps.pop_back();
  dumps.push_back({"Program termination", {{"Ir", 95000}}, {}});
  return dumps;
}

}  // namespace

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

TEST_CASE("a benchmark's exact filter and the listed benchmarks", "[benchmark_counts]") {
  CHECK(exact_benchmark_filter("BM_Sort/8") == "^BM_Sort/8$");
  CHECK(exact_benchmark_filter("BM_f<int>/threads:2") == "^BM_f<int>/threads:2$");
  CHECK(exact_benchmark_filter("BM_x/real_time.min(1)[a]") == "^BM_x/real_time\\.min\\(1\\)\\[a\\]$");
  CHECK(listed_benchmarks("BM_Sort/8\nBM_Sort/16\n\n  BM_Hash/16  \n") ==
        std::vector<std::string>{"BM_Sort/8", "BM_Sort/16", "BM_Hash/16"});
}

TEST_CASE("the count per iteration is the final run's loop over its iterations", "[benchmark_counts]") {
  const auto dumps = gbench_dumps(1066, 226293);
  const auto count =
      count_from_dumps("BM_Hash/16", dumps, gbench_json("BM_Hash/16", 226293), CacheSimulation::off);
  REQUIRE(count);
  CHECK(count->uncountable.empty());
  REQUIRE(count->per_iteration.size() == 1);
  // The loop's entry and exit divided over 226293 iterations: 0.0011 of an instruction.
  CHECK(count->per_iteration.at(CountedEvent::instructions) ==
        Approx(1066.0 + 250.0 / 226293).epsilon(1e-12));
}

TEST_CASE("estimated cycles per iteration need the cache simulation", "[benchmark_counts]") {
  std::vector<CallgrindDump> dumps{
      {k_loop_opened, {{"Ir", 1}}, {}},
      {k_loop_closed,
       {{"Ir", 4e6}, {"I1mr", 0}, {"D1mr", 1000}, {"D1mw", 0}, {"ILmr", 0}, {"DLmr", 100}, {"DLmw", 0}},
       {}}};
  const auto count = count_from_dumps("BM_x", dumps, gbench_json("BM_x", 1000), CacheSimulation::on);
  REQUIRE(count);
  CHECK(count->per_iteration.at(CountedEvent::instructions) == Approx(4000));
  CHECK(count->per_iteration.at(CountedEvent::cycles) == Approx((4e6 + 10 * 1000 + 100 * 100) / 1000));
}

TEST_CASE("what cannot be counted per iteration says why", "[benchmark_counts]") {
  SECTION("threads") {
    const auto count = count_from_dumps("BM_Spin/threads:2", gbench_dumps(1000, 5000),
                                        gbench_json("BM_Spin/threads:2", 5000, 2), CacheSimulation::off);
    REQUIRE(count);
    CHECK(count->uncountable ==
          "runs 2 threads, whose timed loops overlap in one count: not countable per iteration");
  }
  SECTION("a timer paused inside the loop") {
    auto dumps = gbench_dumps(1000, 5000);
    dumps[dumps.size() - 2].functions = {"benchmark::State::PauseTiming()",
                                         "benchmark::State::ResumeTiming()"};
    const auto count = count_from_dumps("BM_p", dumps, gbench_json("BM_p", 5000), CacheSimulation::off);
    REQUIRE(count);
    CHECK(count->uncountable ==
          "pauses its timer inside the loop (State::PauseTiming): the paused work would be in the count, not "
          "countable per iteration");
    dumps[dumps.size() - 2].functions = {"benchmark::State::ResumeTiming()"};
    CHECK(count_from_dumps("BM_p", dumps, gbench_json("BM_p", 5000), CacheSimulation::off)
              ->uncountable.empty());
  }
  SECTION("a final run too short for the loop's entry and exit to vanish") {
    const auto count =
        count_from_dumps("BM_x", gbench_dumps(6046, 1), gbench_json("BM_x", 1), CacheSimulation::off);
    REQUIRE(count);
    CHECK(
        count->uncountable ==
        "counted 6296 instructions in its final run of 1 iterations, too few for the loop's own entry and "
        "exit "
        "to vanish: not countable per iteration at this --benchmark_min_time (the default 0.5 s is enough)");
  }
  SECTION("no loop seen, no JSON entry") {
    const std::vector<CallgrindDump> none{{"Program termination", {{"Ir", 5}}, {}}};
    CHECK(count_from_dumps("BM_x", none, gbench_json("BM_x", 10), CacheSimulation::off).error() ==
          "benchmark \"BM_x\": callgrind saw no call of benchmark::State::StartKeepRunning (is Google "
          "Benchmark "
          "older than 1.7, or the binary stripped of its symbols?)");
    CHECK(count_from_dumps("BM_y", gbench_dumps(1000, 5000), gbench_json("BM_x", 10), CacheSimulation::off)
              .error() == "benchmark \"BM_y\": its run printed no JSON entry for it");
  }
}

TEST_CASE("each benchmark's command: callgrind around the user's arguments, then the filter",
          "[benchmark_counts]") {
  CommandSpec command;
  command.argv = {"./bench", "--benchmark_min_time=0.1", "--benchmark_filter=BM_Hash"};
  const auto wrapped = callgrind_benchmark_command(
      command, {"/work/bench", "/usr/bin/valgrind", CacheSimulation::off, "/tmp/d"},
      {"/tmp/d/callgrind.3", "/tmp/d/valgrind.log.3"}, "BM_Hash/16");
  CHECK(wrapped.argv == std::vector<std::string>{
                            "/usr/bin/valgrind", "--tool=callgrind", "--cache-sim=no",
                            "--collect-atstart=yes", "--dump-before=benchmark::State::StartKeepRunning*",
                            "--dump-before=benchmark::State::FinishKeepRunning*",
                            "--callgrind-out-file=/tmp/d/callgrind.3", "--log-file=/tmp/d/valgrind.log.3",
                            "/work/bench", "--benchmark_min_time=0.1", "--benchmark_filter=BM_Hash",
                            "--benchmark_filter=^BM_Hash/16$", "--benchmark_format=json"});
  CHECK(wrapped.environment.at("LD_BIND_NOW") == "1");
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

TEST_CASE("a final run too short to count is run again with a longer minimum time", "[benchmark_counts]") {
  CommandSpec command;
  command.argv = {"./bench", "--benchmark_min_time=0.1", "--benchmark_filter=BM_Hash"};
  const auto longer = with_longer_min_time(command, 4);
  REQUIRE(longer);
  CHECK(longer->argv.back() == "--benchmark_min_time=0.4");
  command.argv = {"./bench", "--benchmark_min_time=0.05s"};
  CHECK(with_longer_min_time(command, 10)->argv.back() == "--benchmark_min_time=0.5s");
  command.argv = {"./bench"};
  CHECK(with_longer_min_time(command, 3)->argv.back() == "--benchmark_min_time=1.5");
  command.argv = {"./bench", "--benchmark_min_time=100x"};
  CHECK_FALSE(with_longer_min_time(command, 3));
  // The count says how few it counted, for the factor of the second run.
  const auto count =
      count_from_dumps("BM_x", gbench_dumps(100, 1000), gbench_json("BM_x", 1000), CacheSimulation::off);
  REQUIRE(count);
  CHECK(count->too_few == 250 + 1000 * 100);
  CHECK_FALSE(count->uncountable.empty());
}
