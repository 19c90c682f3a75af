// Counting each benchmark of a Catch2 test binary under callgrind (count/catch2_counts.hpp): the
// configuration that asks for it, the count per call from the dumps of the run's sizing
// stretches, the fallback on its samples, and what cannot be counted. The dumps below have the
// shape callgrind wrote for the repository's catch2_bench (Catch2 2.13.10); the callgrind
// runs themselves are in the CLI test catch2_counted_per_benchmark.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "count/catch2_counts.hpp"
#include "duel/run_plan.hpp"
#include "support/config_helpers.hpp"

using namespace perfduel;
using perfduel::testing::metric;
using perfduel::testing::parse_gate;

namespace {

const std::string k_model =
    "Catch::Benchmark::Detail::BenchmarkFunction::model<C_A_T_C_H_T_E_S_T_0()::{lambda(int)#1}>::";
const std::string k_stretch_start = "--dump-before=" + k_model + "call(Catch::Benchmark::Chronometer) const";
const std::string k_stretch_finish = "--dump-after=" + k_model + "call(Catch::Benchmark::Chronometer) const";
const std::string k_stretch_other = "--dump-before=" + k_model + "clone() const";
const std::string k_catch2_preparing =
    "--dump-before=Catch::XmlReporter::benchmarkPreparing(std::__cxx11::basic_string<char, "
    "std::char_traits<char>, std::allocator<char> > const&)";
const std::string k_catch2_starting =
    "--dump-before=Catch::XmlReporter::benchmarkStarting(Catch::BenchmarkInfo const&)";
const std::string k_catch2_ended =
    "--dump-before=Catch::XmlReporter::benchmarkEnded(Catch::BenchmarkStats<std::chrono::duration<double, "
    "std::ratio<1l, 1000000000l> > > const&)";

// The dumps of one benchmark: its sizing stretches of 1, 2, ... 2^(sizing-1) calls, then
// `samples` stretches of `calls` calls, each call `work` instructions and each stretch 35 more
// (the clock reads and the loop); the first call 900 more (its cold start).
void add_benchmark(std::vector<CallgrindDump>& dumps, double work, int sizing, int samples, int calls) {
  dumps.push_back({k_catch2_preparing, {{"Ir", 5.0e5}}, {}, {}});
  for (int i = 0; i < sizing; ++i) {
    const double count = 35 + work * (1 << i) + (i == 0 ? 900 : 0);
    dumps.push_back({k_stretch_start, {{"Ir", 64}}, {}, {}});
    dumps.push_back({k_stretch_finish, {{"Ir", count}}, {}, {}});
    dumps.push_back({k_stretch_other, {{"Ir", 12}}, {}, {}});
  }
  dumps.push_back({k_catch2_starting, {{"Ir", 263}}, {}, {}});
  for (int i = 0; i < samples; ++i) {
    dumps.push_back({k_stretch_start, {{"Ir", 81}}, {}, {}});
    dumps.push_back({k_stretch_finish, {{"Ir", 35 + work * calls}}, {}, {}});
    dumps.push_back({k_stretch_other, {{"Ir", 12}}, {}, {}});
  }
  dumps.push_back({k_catch2_ended, {{"Ir", 688}}, {}, {}});
}

Catch2Benchmark reported(const std::string& name, double iterations) {
  Catch2Benchmark benchmark;
  benchmark.name = name;
  benchmark.mean_seconds = 1e-6;
  benchmark.iterations = iterations;
  return benchmark;
}

}  // namespace

TEST_CASE("catch2 with valgrind: one counted metric per benchmark", "[catch2_counts][config]") {
  const Config config = parse_gate(R"(metrics:
  insns: {catch2: "sort*", valgrind: instructions}
  est: {catch2: "fnv1a 256", valgrind: cycles, gate: false}
)");
  const auto& insns = metric(config, "insns");
  CHECK(insns.source == MetricSource::valgrind);
  CHECK(insns.framework == BenchmarkFramework::catch2);
  CHECK(insns.benchmark == "sort*");
  CHECK(insns.unit == "insn/iter");
  CHECK(insns.tolerance == Approx(0.001));
  CHECK(metric(config, "est").unit == "cycles/iter");
  const RunPlan plan = plan_runs(config);
  CHECK(plan.framework == BenchmarkFramework::catch2);
  CHECK_FALSE(plan.plain);
  CHECK_THROWS_WITH(parse_gate("metrics:\n  i: {catch2: '*', counter: instructions}\n"),
                    "gate.yaml:2: \"counter\" counts the whole process, not each benchmark; count each "
                    "benchmark with valgrind: instructions instead");
  const Config mixed = parse_gate(
      "metrics:\n  i: {google_benchmark: '*', valgrind: instructions}\n  c: {catch2: '*', valgrind: "
      "instructions}\n");
  CHECK_THROWS_WITH(check_run_plan(mixed, plan_runs(mixed)),
                    "gate.yaml: metric \"i\": valgrind counts the benchmarks of one framework in a duel (one "
                    "program), not both google_benchmark and catch2");
}

TEST_CASE("a Catch2 benchmark's count per call: the difference of its last two sizing stretches",
          "[catch2_counts]") {
  std::vector<CallgrindDump> dumps;
  add_benchmark(dumps, 34748, 11, 1, 5);
  // A function's cold part, entered by a jump, is no second preparation.
  dumps.push_back({k_catch2_preparing + " [clone .cold]", {{"Ir", 40}}, {}, {}});
  add_benchmark(dumps, 372457, 7, 1, 1);
  dumps.push_back({"Program termination", {{"Ir", 90000}}, {}, {}});
  const std::vector<Catch2Benchmark> benchmarks{reported("sort 64", 5), reported("sort 512", 1)};
  const auto counts = catch2_counts_from_dumps(dumps, benchmarks, CacheSimulation::off);
  REQUIRE(counts);
  REQUIRE(counts->size() == 2);
  // Exactly the body's work: the stretches' 35 and the first call's 900 cancel.
  CHECK((*counts)[0].per_iteration.at(CountedEvent::instructions) == 34748);
  CHECK((*counts)[1].per_iteration.at(CountedEvent::instructions) == 372457);
  CHECK((*counts)[0].uncountable.empty());

  SECTION("one sizing stretch: the samples over their calls, when large enough") {
    std::vector<CallgrindDump> one;
    add_benchmark(one, 4.0e6, 1, 3, 1);
    const auto big = catch2_counts_from_dumps(one, std::vector{reported("big", 1)}, CacheSimulation::off);
    REQUIRE(big);
    CHECK((*big)[0].per_iteration.at(CountedEvent::instructions) == 4.0e6 + 35);
    std::vector<CallgrindDump> small;
    add_benchmark(small, 1.0e6, 1, 3, 2);
    const auto few = catch2_counts_from_dumps(small, std::vector{reported("small", 2)}, CacheSimulation::off);
    REQUIRE(few);
    CHECK((*few)[0].per_iteration.empty());
    CHECK((*few)[0].uncountable ==
          "counted 2000035 instructions in a timed stretch of 2 calls, too few for the stretch's own to "
          "vanish: not countable per call");
    // Such a run is counted again at a longer warm-up (ValgrindExecutor), one with a countable
    // benchmark only is not.
    RunResult run;
    run.status = RunStatus::exited;
    CHECK_FALSE(needs_longer_catch2_warmup(run));
    run.uncountable["small"] = (*few)[0].uncountable;
    CHECK(needs_longer_catch2_warmup(run));
    run.uncountable["small"] = "runs another benchmark inside its own timed stretch: not countable per call";
    CHECK_FALSE(needs_longer_catch2_warmup(run));
  }
  SECTION("estimated cycles from the same stretches") {
    std::vector<CallgrindDump> cached;
    add_benchmark(cached, 1000, 4, 1, 2);
    for (auto& dump : cached) {
      dump.totals["I1mr"] = dump.totals["D1mr"] = dump.totals["D1mw"] = 0;
      dump.totals["ILmr"] = dump.totals["DLmr"] = dump.totals["DLmw"] = 0;
    }
    cached[11].totals["D1mr"] = 3;  // the last stretch, of 8 calls: 3 L1 misses, that of 4 none
    const auto both = catch2_counts_from_dumps(cached, std::vector{reported("c", 2)}, CacheSimulation::on);
    REQUIRE(both);
    CHECK((*both)[0].per_iteration.at(CountedEvent::instructions) == 1000);
    CHECK((*both)[0].per_iteration.at(CountedEvent::cycles) == Approx(1000 + 10 * 3 / 4.0));
  }
  SECTION("the dumps and the XML disagree, or a benchmark failed") {
    const auto short_of =
        catch2_counts_from_dumps(dumps, std::vector{reported("sort 64", 5)}, CacheSimulation::off);
    REQUIRE_FALSE(short_of);
    CHECK(short_of.error() ==
          "callgrind saw 2 Catch2 benchmarks start where the XML reports 1 (is the binary stripped of its "
          "symbols, "
          "or is its Catch2 not v2 or v3?)");
    auto failing = benchmarks;
    failing[1].failure = "std::bad_alloc";
    const auto failed = catch2_counts_from_dumps(dumps, failing, CacheSimulation::off);
    REQUIRE_FALSE(failed);
    CHECK(failed.error() == "Catch2 benchmark \"sort 512\" failed: std::bad_alloc");
  }
  SECTION("stretches that do not grow with their calls") {
    std::vector<CallgrindDump> flat;
    add_benchmark(flat, 0, 3, 1, 1);
    const auto none = catch2_counts_from_dumps(flat, std::vector{reported("flat", 1)}, CacheSimulation::off);
    REQUIRE(none);
    CHECK((*none)[0].uncountable ==
          "its timed stretches of 4 and 2 calls counted 35 and 35: its calls do not add up to a count per "
          "call");
  }
}

TEST_CASE("the counted run's own Catch2 options replace the command's", "[catch2_counts]") {
  const std::vector<std::string> given{"-r",
                                       "xml",
                                       "[!benchmark]",
                                       "--benchmark-samples",
                                       "50",
                                       "--benchmark-no-analysis",
                                       "--benchmark-warmup-time=10",
                                       "--units=100"};
  CHECK(catch2_counting_arguments(given) ==
        std::vector<std::string>{"-r", "xml", "[!benchmark]", "--units=100", "--benchmark-samples", "1",
                                 "--benchmark-warmup-time", "250", "--benchmark-no-analysis"});
  CHECK(catch2_counting_arguments(std::vector<std::string>{}).size() == k_catch2_counting_arguments.size());
  // A retry's longer warm-up in place of the counting one.
  CHECK(catch2_counting_arguments(given, 1000) ==
        std::vector<std::string>{"-r", "xml", "[!benchmark]", "--units=100", "--benchmark-samples", "1",
                                 "--benchmark-warmup-time", "1000", "--benchmark-no-analysis"});
}
