// Counting each benchmark of a Google Benchmark suite under callgrind
// (count/benchmark_counts.hpp): the configuration that asks for it, the command each benchmark
// runs with, the count per iteration from its dumps and JSON, the benchmarks that cannot be
// counted, and reading the counts as metrics. The callgrind runs themselves are in the CLI
// test gbench_counted_per_benchmark.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "count/benchmark_counts.hpp"
#include "duel/metric_expansion.hpp"
#include "duel/run_plan.hpp"
#include "run/gbench_results.hpp"
#include "run/metric_extractor.hpp"
#include "support/config_helpers.hpp"

using namespace perfduel;
using perfduel::testing::metric;
using perfduel::testing::parse_gate;

namespace {

constexpr const char* k_loop_opened = "--dump-before=benchmark::State::StartKeepRunning()";
constexpr const char* k_loop_closed = "--dump-before=benchmark::State::FinishKeepRunning()";

// A run of `iterations` iterations of benchmark `name`, `per_iteration` instructions each
// (`per_iteration(i)` for the i-th iteration, from 1), with the loop's entry and exit (250)
// and, in `cold` of them, that much once more; `seconds` as logged.
CountedRun counted_run(const std::string& name, double iterations,
                       const std::function<double(double)>& per_iteration, double cold = 0,
                       double seconds = 0.001) {
  double instructions = 250 + cold;
  for (double i = 1; i <= iterations; ++i) {
    instructions += per_iteration(i);
  }
  return {{name, iterations, seconds}, CallgrindDump{k_loop_closed, {{"Ir", instructions}}, {}, {}}};
}

// The runs of a benchmark of `per_iteration` instructions whose framework ran 1, 10, ... 10^k
// iterations (k = `powers` - 1), then `final` iterations; the first run does 5000 instructions
// of cold work.
std::vector<CountedRun> searched_runs(const std::function<double(double)>& per_iteration, int powers,
                                      double final) {
  std::vector<CountedRun> runs;
  double iterations = 1;
  for (int k = 0; k < powers; ++k, iterations *= 10) {
    runs.push_back(counted_run("BM_x", iterations, per_iteration, k == 0 ? 5000 : 0, 1e-5 * iterations));
  }
  runs.push_back(counted_run("BM_x", final, per_iteration, 0, 0.3));
  return runs;
}

double constant_work(double /*iteration*/) {
  return 1066;
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
  const auto filter = [](std::vector<std::string> names) { return exact_benchmark_filter(names); };
  CHECK(filter({"BM_Sort/8"}) == "^BM_Sort/8$");
  CHECK(filter({"BM_f<int>/threads:2"}) == "^BM_f<int>/threads:2$");
  CHECK(filter({"BM_x/real_time.min(1)[a]"}) == "^BM_x/real_time\\.min\\(1\\)\\[a\\]$");
  CHECK(filter({"BM_Sort/8", "BM_a|b", "null_sink_st (global logger)"}) ==
        "^(BM_Sort/8|BM_a\\|b|null_sink_st \\(global logger\\))$");
  CHECK(listed_benchmarks("BM_Sort/8\nBM_Sort/16\n\n  BM_Hash/16  \n") ==
        std::vector<std::string>{"BM_Sort/8", "BM_Sort/16", "BM_Hash/16"});
}

TEST_CASE("the runs Google Benchmark logs at --v=2", "[benchmark_counts]") {
  const auto runs = logged_runs(
      "-- LOG(2): Running null_sink_st (global logger) for 1\n-- LOG(2): Ran in 1.1961e-05/1.3758e-05\n"
      "a line the benchmark printed\n-- LOG(2): Running BM_x for 2654785\n-- LOG(3): Next iters: 10, 10\n"
      "-- LOG(2): Ran in 0.1419/0.141898\n-- LOG(2): Running BM_y for many\n"
      // Google Benchmark 1.9.1's warning for a minimum time without a unit has no line end.
      "-- LOG(0): Value passed to --benchmark_min_time should have a suffix. Eg., `30s` for 30-seconds."
      "-- LOG(2): Running BM_z for 10\n");
  REQUIRE(runs.size() == 3);
  CHECK(runs[2].name == "BM_z");
  CHECK(runs[2].iterations == 10);
  CHECK(runs[0].name == "null_sink_st (global logger)");
  CHECK(runs[0].iterations == 1);
  CHECK(runs[0].seconds == Approx(1.3758e-05));
  CHECK(runs[1].name == "BM_x");
  CHECK(runs[1].iterations == 2654785);
  CHECK(runs[1].seconds == Approx(0.1419));
}

TEST_CASE("one process's dumps are split into the runs it logged", "[benchmark_counts]") {
  const std::vector<LoggedRun> logged{{"BM_a", 1, 0}, {"BM_t/threads:2", 1, 0}, {"BM_a", 10, 0}};
  const std::vector<CallgrindDump> dumps{
      {k_loop_opened, {{"Ir", 2.9e6}}, {}, {}},        {k_loop_closed, {{"Ir", 1300}}, {}, {}},
      {k_loop_opened, {{"Ir", 900}}, {}, {}},          {k_loop_opened, {{"Ir", 40}}, {}, {}},
      {k_loop_closed, {{"Ir", 700}}, {}, {}},          {k_loop_closed, {{"Ir", 800}}, {}, {}},
      {k_loop_opened, {{"Ir", 900}}, {}, {}},          {k_loop_closed, {{"Ir", 10900}}, {}, {}},
      {"Program termination", {{"Ir", 95000}}, {}, {}}};
  const auto split = split_runs(dumps, logged, {{"BM_t/threads:2", 2}});
  REQUIRE(split);
  REQUIRE(split->at("BM_a").size() == 2);
  CHECK(split->at("BM_a")[0].window->totals.at("Ir") == 1300);
  CHECK(split->at("BM_a")[1].logged.iterations == 10);
  CHECK(split->at("BM_a")[1].window->totals.at("Ir") == 10900);
  REQUIRE(split->at("BM_t/threads:2").size() == 1);
  CHECK_FALSE(split->at("BM_t/threads:2")[0].window);
  CHECK(split->at("BM_t/threads:2")[0].threads == 2);
  // A thread count not known makes the log and the dumps disagree.
  CHECK(split_runs(dumps, logged, {}).error() ==
        "callgrind's 8 dumps around timed loops do not match the 3 runs Google Benchmark logged (--v=2)");
}

TEST_CASE("the count per iteration is the slope between the framework's first runs of 10^(j-1) and 10^j",
          "[benchmark_counts]") {
  // 1066 instructions an iteration: runs of 1, 10, 100 iterations count 6316, 10910 and 106850;
  // the first at least a million is 1000's: the slope from 100 to 1000 is exact, whatever the
  // final run, the loop's entry and exit and the first run's cold work.
  for (const double final : {2654785.0, 300000.0}) {
    const auto runs = searched_runs(constant_work, 5, final);
    const auto count = count_from_runs("BM_x", runs, false, CacheSimulation::off);
    REQUIRE(count);
    CHECK(count->uncountable.empty());
    CHECK(count->needs_min_time == 0);
    CHECK(count->per_iteration.at(CountedEvent::instructions) == Approx(1066).epsilon(1e-12));
  }
  // Work that grows with the iteration's number (a message numbered by it, its digits): the
  // same runs count the same, however many iterations the final run had.
  const auto digits = [](double i) { return 600 + 3 * std::floor(std::log10(i)); };
  const auto fast = count_from_runs("BM_x", searched_runs(digits, 6, 2654785), false, CacheSimulation::off);
  const auto slow = count_from_runs("BM_x", searched_runs(digits, 5, 12000), false, CacheSimulation::off);
  REQUIRE(fast);
  REQUIRE(slow);
  CHECK(fast->per_iteration.at(CountedEvent::instructions) ==
        slow->per_iteration.at(CountedEvent::instructions));
  CHECK(fast->per_iteration.at(CountedEvent::instructions) == Approx(609));  // iterations 1001-10000
  // A first run of a million instructions or more is the count.
  const auto heavy =
      count_from_runs("BM_x", searched_runs([](double) { return 2e6; }, 1, 3), false, CacheSimulation::off);
  REQUIRE(heavy);
  CHECK(heavy->per_iteration.at(CountedEvent::instructions) == 2e6 + 5250);
}

TEST_CASE("estimated cycles per iteration need the cache simulation", "[benchmark_counts]") {
  const auto run = [](double iterations, double factor) {
    return CountedRun{{"BM_x", iterations, 0},
                      CallgrindDump{k_loop_closed,
                                    {{"Ir", 4000 * factor},
                                     {"I1mr", 0},
                                     {"D1mr", 10 * factor},
                                     {"D1mw", 0},
                                     {"ILmr", 0},
                                     {"DLmr", factor},
                                     {"DLmw", 0}},
                                    {},
                                    {}}};
  };
  const std::vector<CountedRun> runs{run(1, 1.5), run(10, 10.5), run(100, 100.5), run(1000, 1000.5)};
  const auto count = count_from_runs("BM_x", runs, false, CacheSimulation::on);
  REQUIRE(count);
  CHECK(count->per_iteration.at(CountedEvent::instructions) == Approx(4000));
  CHECK(count->per_iteration.at(CountedEvent::cycles) == Approx(4000 + 10 * 10 + 100 * 1));
  CHECK(count_from_runs("BM_x", runs, false, CacheSimulation::off)->per_iteration.size() == 1);
}

TEST_CASE("what cannot be counted per iteration says why", "[benchmark_counts]") {
  SECTION("threads") {
    std::vector<CountedRun> runs{{{"BM_Spin/threads:2", 1, 0}, std::nullopt, 2}};
    const auto count = count_from_runs("BM_Spin/threads:2", runs, false, CacheSimulation::off);
    REQUIRE(count);
    CHECK(count->uncountable ==
          "runs 2 threads, whose timed loops overlap in one count: not countable per iteration");
  }
  SECTION("a timer paused inside the loop") {
    auto runs = searched_runs(constant_work, 5, 5000);
    runs[3].window->functions = {"benchmark::State::PauseTiming()", "benchmark::State::ResumeTiming()"};
    const auto count = count_from_runs("BM_p", runs, false, CacheSimulation::off);
    REQUIRE(count);
    CHECK(count->uncountable ==
          "pauses its timer inside the loop (State::PauseTiming): the paused work would be in the count, not "
          "countable per iteration");
    runs[3].window->functions = {"benchmark::State::ResumeTiming()"};
    CHECK(count_from_runs("BM_p", runs, false, CacheSimulation::off)->uncountable.empty());
  }
  SECTION("runs that stop short of a slope ask for a longer minimum time") {
    // Runs of 1, 10, 100 (106850 instructions in 1 ms), then a count predicted from the time: the
    // run of 1000 would be the slope's, if the run of 100 took under a tenth of the minimum time,
    // twice over.
    const auto count =
        count_from_runs("BM_x", searched_runs(constant_work, 3, 14000), false, CacheSimulation::off);
    REQUIRE(count);
    CHECK(count->per_iteration.empty());
    CHECK(count->needs_min_time == Approx(20 * 1e-3));
    CHECK(
        count->uncountable ==
        "its runs of 1, 10, 100, ... iterations under callgrind stopped at 100 iterations, 106850 "
        "instructions, "
        "before one counted 1000000: not countable per iteration (does the benchmark set its own MinTime?)");
  }
  SECTION("a loop the compiler emptied") {
    std::vector<CountedRun> runs;
    for (double iterations = 1; iterations <= 1e9; iterations *= 10) {
      // As counted_run would make them, without a billion calls of an empty iteration.
      runs.push_back({{"BM_e", iterations, 0.001}, CallgrindDump{k_loop_closed, {{"Ir", 250.0}}, {}, {}}});
    }
    const auto count = count_from_runs("BM_e", runs, false, CacheSimulation::off);
    REQUIRE(count);
    CHECK(count->needs_min_time == 0);
    CHECK(count->uncountable ==
          "counted 250 instructions in 1000000000 iterations, the framework's most: no work per iteration to "
          "count");
  }
  SECTION("a first run of more than one iteration") {
    std::vector<CountedRun> runs{counted_run("BM_x", 100, constant_work)};
    CHECK(
        count_from_runs("BM_x", runs, false, CacheSimulation::off)->uncountable ==
        "its first run was of 100 iterations, not 1 (a warm-up, or an iteration count set in the code): not "
        "countable per iteration");
  }
  SECTION("a fixed iteration count: the run over its iterations, when it counts enough") {
    std::vector<CountedRun> runs{counted_run("BM_x", 5000, constant_work)};
    const auto count = count_from_runs("BM_x", runs, true, CacheSimulation::off);
    REQUIRE(count);
    CHECK(count->per_iteration.at(CountedEvent::instructions) == Approx(1066 + 250.0 / 5000));
    runs = {counted_run("BM_x", 100, constant_work)};
    CHECK(
        count_from_runs("BM_x", runs, true, CacheSimulation::off)->uncountable ==
        "counted 106850 instructions in its run of 100 iterations, too few for the loop's own entry and exit "
        "to vanish: not countable per iteration at this fixed iteration count");
  }
  SECTION("no loop seen") {
    CHECK(count_from_runs("BM_x", {}, false, CacheSimulation::off).error() ==
          "benchmark \"BM_x\": callgrind saw no run of its timed loop (is Google Benchmark older than 1.7, "
          "or the "
          "binary stripped of its symbols?)");
  }
}

TEST_CASE("each benchmark's command: callgrind around the user's arguments, then the filter",
          "[benchmark_counts]") {
  CommandSpec command;
  command.argv = {"./bench", "--benchmark_min_time=0.1", "--benchmark_filter=BM_Hash"};
  const auto wrapped = callgrind_benchmark_command(
      command, {"/work/bench", "/usr/bin/valgrind", CacheSimulation::off, "/tmp/d", 250, {}},
      {"/tmp/d/callgrind.3", "/tmp/d/valgrind.log.3"}, std::vector<std::string>{"BM_Hash/16"});
  CHECK(wrapped.argv == std::vector<std::string>{
                            "/usr/bin/valgrind", "--tool=callgrind", "--cache-sim=no",
                            "--collect-atstart=yes", "--dump-before=benchmark::State::StartKeepRunning*",
                            "--dump-before=benchmark::State::FinishKeepRunning*",
                            "--callgrind-out-file=/tmp/d/callgrind.3", "--log-file=/tmp/d/valgrind.log.3",
                            "/work/bench", "--benchmark_min_time=0.1", "--benchmark_filter=BM_Hash",
                            "--benchmark_filter=^BM_Hash/16$", "--benchmark_format=json",
                            "--benchmark_repetitions=1", "--v=2"});
  CHECK(wrapped.environment.at("LD_BIND_NOW") == "1");
  CHECK(wrapped.environment.count("LD_PRELOAD") == 0);
  // Counting allocations preloads the counter after the command's own preloads.
  command.environment["LD_PRELOAD"] = "/opt/libfast.so";
  const auto counting = callgrind_benchmark_command(
      command,
      {"/work/bench", "/usr/bin/valgrind", CacheSimulation::off, "/tmp/d", 250, "/opt/libperfduel-alloc.so"},
      {"/tmp/d/callgrind.3", "/tmp/d/valgrind.log.3"}, std::vector<std::string>{"BM_Hash/16"});
  CHECK(counting.environment.at("LD_PRELOAD") == "/opt/libfast.so:/opt/libperfduel-alloc.so");
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

TEST_CASE("a suite is counted at its own minimum time, in the form the command gives", "[benchmark_counts]") {
  CommandSpec command;
  command.argv = {"./bench", "--benchmark_min_time=0.01", "--benchmark_filter=BM_Hash"};
  const auto timed = with_min_time(command, 0.2);
  REQUIRE(timed);
  CHECK(timed->argv.back() == "--benchmark_min_time=0.2");
  command.argv = {"./bench", "--benchmark_min_time=0.05s"};
  CHECK(with_min_time(command, 1.5)->argv.back() == "--benchmark_min_time=1.5s");
  command.argv = {"./bench"};
  CHECK(with_min_time(command, 0.2)->argv.back() == "--benchmark_min_time=0.2");
  command.argv = {"./bench", "--benchmark_min_time=100x"};
  CHECK_FALSE(with_min_time(command, 0.2));
}
