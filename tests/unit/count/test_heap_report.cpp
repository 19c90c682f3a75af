// A whole program's heap, counted natively by the preloaded allocation counter: its report read
// (count/heap_report.hpp), the plain runs that make it (count/heap_executor.hpp), the
// configuration of the heap metrics, and a duel judging them.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "count/heap_executor.hpp"
#include "count/heap_report.hpp"
#include "duel/duel.hpp"
#include "duel/run_plan.hpp"
#include "run/metric_extractor.hpp"
#include "util/file.hpp"

using namespace perfduel;

namespace {

// An inner executor that runs nothing: it writes the report a counted process would, where the
// command's environment says, 100 allocations of 120 bytes for the baseline and one more for the
// candidate with `extra`; `lines`: how many processes report (0: a program that ended by _exit).
class ReportingExecutor : public Executor {
 public:
  RunResult run(const CommandSpec& command, const RunLimits&) override {
    const auto report = command.environment.find(std::string(k_heap_report_variable));
    preloads.push_back(command.environment.count("LD_PRELOAD") != 0 ? command.environment.at("LD_PRELOAD")
                                                                    : "");
    const bool candidate = command.argv.at(0) == "candidate";
    std::string text;
    for (int i = 0; i < lines && report != command.environment.end(); ++i) {
      text +=
          fmt::format("pid={} allocations={} allocated_bytes={} peak={}\n", 100 + i,
                      100 + (candidate && extra ? 1 : 0), 120 * (100 + (candidate && extra ? 1 : 0)), 12000);
    }
    if (report != command.environment.end()) {
      (void)util::write_file_atomically(report->second, text);
    }
    RunResult result;
    result.status = RunStatus::exited;
    result.exit_code = exit_code;
    result.wall_seconds = 0.01;
    now += 0.01;
    return result;
  }
  double now_seconds() override { return now; }

  bool extra = false;
  int lines = 1;
  int exit_code = 0;
  double now = 0;
  std::vector<std::string> preloads;
};

Config heap_gate() {
  Config config = parse_config(
      "metrics:\n  allocs: {heap: allocations}\n  bytes: {heap: allocated_bytes}\n  peak: {heap: peak}\n",
      "gate.yaml");
  config.baseline = CommandSpec{{"baseline"}, Launch::direct, {}, {}};
  config.candidate = CommandSpec{{"candidate"}, Launch::direct, {}, {}};
  return config;
}

const MetricResult& result_named(const Analysis& analysis, const std::string& name) {
  return *std::find_if(analysis.metrics.begin(), analysis.metrics.end(),
                       [&](const MetricResult& r) { return r.spec.name == name; });
}

}  // namespace

TEST_CASE("a heap report: allocations and bytes summed over its processes, the largest peak", "[heap]") {
  const auto one = parse_heap_report("pid=12 allocations=1000 allocated_bytes=120000 peak=120000\n");
  REQUIRE(one);
  CHECK(one->at(CountedEvent::allocations) == 1000);
  CHECK(one->at(CountedEvent::allocated_bytes) == 120000);
  CHECK(one->at(CountedEvent::peak_heap) == 120000);
  // A program and one it started: both reported.
  const auto two = parse_heap_report(
      "pid=12 allocations=10 allocated_bytes=640 peak=500\n\npid=13 allocations=3 allocated_bytes=72 "
      "peak=900\n");
  REQUIRE(two);
  CHECK(two->at(CountedEvent::allocations) == 13);
  CHECK(two->at(CountedEvent::allocated_bytes) == 712);
  CHECK(two->at(CountedEvent::peak_heap) == 900);

  const auto garbage = parse_heap_report("pid=12 allocations=ten allocated_bytes=1 peak=1\n");
  REQUIRE_FALSE(garbage);
  CHECK(garbage.error() ==
        "the heap report has a line that is not the allocation counter's: \"pid=12 allocations=ten "
        "allocated_bytes=1 peak=1\"");
  const auto none = parse_heap_report("");
  REQUIRE_FALSE(none);
  CHECK(none.error() ==
        "no process reported its heap: the program ended without its exit handlers (_exit, a signal, or an "
        "exec into a program that did not return), so its heap was not counted");
}

TEST_CASE("a counted run preloads the counter and reads its report", "[heap]") {
  CommandSpec command{{"prog", "--flag"}, Launch::direct, {}, {{"LD_PRELOAD", "/lib/mine.so"}}};
  const CommandSpec counted = with_heap_counter(command, "/opt/libperfduel-alloc.so", "/tmp/r.txt");
  CHECK(counted.argv == command.argv);
  CHECK(counted.environment.at("LD_PRELOAD") == "/lib/mine.so:/opt/libperfduel-alloc.so");
  CHECK(counted.environment.at("PERFDUEL_ALLOC_REPORT") == "/tmp/r.txt");

  ReportingExecutor inner;
  HeapExecutor executor(inner, "/opt/libperfduel-alloc.so");
  const RunResult run = executor.run(CommandSpec{{"baseline"}, Launch::direct, {}, {}}, RunLimits{});
  CHECK(inner.preloads.back() == "/opt/libperfduel-alloc.so");
  REQUIRE(run.status == RunStatus::exited);
  CHECK(run.heap.at(CountedEvent::allocations) == 100);

  inner.lines = 0;  // ended by _exit: no report, no reading
  const RunResult unreported = executor.run(CommandSpec{{"baseline"}, Launch::direct, {}, {}}, RunLimits{});
  CHECK(unreported.status == RunStatus::failed_to_count);
  CHECK_THAT(unreported.error, Catch::StartsWith("no process reported its heap"));
  inner.exit_code = 3;  // a failed run stays the failure it was
  const RunResult failed = executor.run(CommandSpec{{"baseline"}, Launch::direct, {}, {}}, RunLimits{});
  CHECK(failed.status == RunStatus::exited);
  CHECK(failed.exit_code == 3);
  CHECK(failed.heap.empty());

  // The values of the metrics, from the run; a run without them is a failed reading.
  const Config config = heap_gate();
  const MetricExtractor extractor(config.metrics);
  const auto values = extractor.extract(run);
  REQUIRE(values);
  const auto index = [&](const std::string& name) {
    return std::find_if(config.metrics.begin(), config.metrics.end(),
                        [&](const MetricSpec& m) { return m.name == name; }) -
           config.metrics.begin();
  };
  CHECK(values->at(static_cast<std::size_t>(index("allocs"))) == 100);
  CHECK(values->at(static_cast<std::size_t>(index("bytes"))) == 12000);
  CHECK(values->at(static_cast<std::size_t>(index("peak"))) == 12000);
  const auto missing = extractor.extract(RunResult{});
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error(), Catch::Contains("the run has no heap count of allocations"));
}

TEST_CASE("heap metrics: natively counted, in their units, judged as counts", "[heap][config]") {
  const Config config = heap_gate();
  const auto& allocs = *std::find_if(config.metrics.begin(), config.metrics.end(),
                                     [](const MetricSpec& m) { return m.name == "allocs"; });
  CHECK(allocs.source == MetricSource::heap);
  CHECK(allocs.event == CountedEvent::allocations);
  CHECK(allocs.unit == "allocs");
  CHECK(allocs.tolerance == Approx(0.001));
  CHECK(config.metrics.back().event == CountedEvent::peak_heap);
  CHECK(config.metrics.back().unit == "B");
  const auto wall = std::find_if(config.metrics.begin(), config.metrics.end(),
                                 [](const MetricSpec& m) { return m.name == "wall_time"; });
  REQUIRE(wall != config.metrics.end());  // the plain runs are made: wall time is reported
  CHECK(wall->gating == Gating::report_only);
  CHECK(parse_config(config_to_json(config), "effective.json").metrics.back().event ==
        CountedEvent::peak_heap);
  const RunPlan plan = plan_runs(config);
  CHECK(plan.plain);
  CHECK(plan.heap);
  CHECK_FALSE(plan.valgrind);

  CHECK_THROWS_WITH(
      parse_config("metrics:\n  a: {google_benchmark: \"BM_*\", heap: peak}\n", "gate.yaml"),
      "gate.yaml:2: \"heap\" counts the whole program's run, not each benchmark: count each benchmark's "
      "allocations and bytes with valgrind: allocations or allocated_bytes (a benchmark's peak heap is not "
      "counted: the marker calls callgrind counts in its window give its allocations and bytes exactly, but "
      "not which blocks are live at once)");
  CHECK_THROWS_WITH(parse_config("metrics:\n  a: {valgrind: allocations}\n", "gate.yaml"),
                    Catch::Contains("or count the whole program's with heap: allocations"));
  CHECK_THROWS_WITH(
      parse_config("metrics:\n  a: {heap: frees}\n", "gate.yaml"),
      Catch::Contains("\"heap\" must be one of allocations, allocated_bytes, peak, not \"frees\""));
}

TEST_CASE("a duel on heap metrics: one allocation more fails in 3 rounds, the same program passes",
          "[heap][duel]") {
  const Config config = heap_gate();
  ReportingExecutor inner;
  HeapExecutor executor(inner, "/opt/libperfduel-alloc.so");
  const DuelOutcome same = run_duel(config, executor, 1, nullptr);
  CHECK(same.analysis.verdict == Verdict::no_change);
  CHECK(same.analysis.measured_rounds == 3);
  CHECK(result_named(same.analysis, "allocs").baseline_median == 100);

  inner.extra = true;
  const DuelOutcome more = run_duel(config, executor, 1, nullptr);
  CHECK(more.analysis.verdict == Verdict::regression);
  CHECK(more.analysis.measured_rounds == 3);
  CHECK(result_named(more.analysis, "allocs").verdict == Verdict::regression);
  CHECK(result_named(more.analysis, "allocs").candidate_median == 101);
  CHECK(result_named(more.analysis, "bytes").verdict == Verdict::regression);
  CHECK(result_named(more.analysis, "peak").verdict == Verdict::no_change);

  inner.lines = 0;  // no report: a failed run, not a reading
  const DuelOutcome failed = run_duel(config, executor, 1, nullptr);
  CHECK(failed.end == DuelEnd::benchmark_failed);
  CHECK_THAT(failed.failure, Catch::Contains("could not be counted: no process reported its heap"));
}
