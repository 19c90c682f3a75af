// Allocations per iteration from the calls a profile counted (count/allocation_counts.hpp), and
// the configuration of the allocation metrics.
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "count/allocation_counts.hpp"
#include "duel/analysis.hpp"
#include "error.hpp"
#include "support/analysis_helpers.hpp"

using namespace perfduel;

TEST_CASE("allocations and bytes are the calls of the markers, bytes by bit", "[allocations]") {
  Profile profile;
  profile.functions["perfduel_allocation"].calls = 3;
  profile.functions["perfduel_alloc_bit_2"].calls = 2;   // 2 × 4 bytes
  profile.functions["perfduel_alloc_bit_10"].calls = 1;  // 1024 bytes
  profile.functions["perfduel_alloc_bit_x"].calls = 5;   // not a bit: ignored
  profile.functions["malloc"].calls = 7;                 // the allocator itself: not counted
  std::map<CountedEvent, double> counts{{CountedEvent::instructions, 100}};
  add_allocation_counts(profile, counts);
  CHECK(counts.at(CountedEvent::instructions) == 100);
  CHECK(counts.at(CountedEvent::allocations) == 3);
  CHECK(counts.at(CountedEvent::allocated_bytes) == 1032);

  // A slope's fractional calls divide like the instructions: 8 allocations over 10 iterations.
  Profile slope;
  slope.functions["perfduel_allocation"].calls = 0.8;
  slope.functions["perfduel_alloc_bit_0"].calls = 0.1;
  add_allocation_counts(slope, counts);
  CHECK(counts.at(CountedEvent::allocations) == Approx(0.8));
  CHECK(counts.at(CountedEvent::allocated_bytes) == Approx(0.1));

  std::map<CountedEvent, double> none{{CountedEvent::instructions, 100}};
  add_allocation_counts(Profile{}, none);  // no marker called: nothing added (the metric reads 0)
  CHECK(none.size() == 1);
}

TEST_CASE("allocation metrics are counted per benchmark by valgrind, in their own units",
          "[allocations][config]") {
  const Config config = parse_config(
      "metrics:\n  allocs: {google_benchmark: \"BM_*\", valgrind: allocations}\n"
      "  bytes: {catch2: \"*\", valgrind: allocated_bytes, gate: false}\n",
      "gate.yaml");
  const auto& allocs = config.metrics.at(config.metrics.size() - 2);
  const auto& bytes = config.metrics.back();
  CHECK(allocs.event == CountedEvent::allocations);
  CHECK(allocs.unit == "allocs/iter");
  CHECK(allocs.framework == BenchmarkFramework::google_benchmark);
  CHECK(allocs.tolerance == Approx(0.001));
  CHECK(zeros_allowed(allocs));
  CHECK(bytes.event == CountedEvent::allocated_bytes);
  CHECK(bytes.unit == "B/iter");
  CHECK(parse_config(config_to_json(config), "effective.json").metrics.back().event ==
        CountedEvent::allocated_bytes);
  CHECK_THROWS_WITH(parse_config("metrics:\n  a: {valgrind: allocations}\n", "gate.yaml"),
                    Catch::Contains("\"valgrind: allocations\" counts each benchmark's allocations per "
                                    "iteration: give the benchmarks too (google_benchmark or catch2)"));
  CHECK_THROWS_WITH(parse_config("metrics:\n  a: {counter: allocations}\n", "gate.yaml"),
                    Catch::Contains("counter"));
}

TEST_CASE("an allocation new to a loop that made none fails the gate by name", "[allocations]") {
  Config config =
      parse_config("metrics:\n  allocs: {google_benchmark: BM_Zero, valgrind: allocations}\n", "gate.yaml");
  const std::vector<double> none(10, 0.0);
  const std::vector<double> one(10, 1.0);
  // A verdict, not an error: a regression by the metric's name, its note saying why there is no ratio.
  const Analysis added = analyze(config, testing::runs_of(none, one), Finality::final);
  CHECK(added.verdict == Verdict::regression);
  CHECK(added.metrics.front().verdict == Verdict::regression);
  CHECK(testing::has_note(added, "allocs: 0 → 1 allocs/iter (new allocations in its loop)"));
  // The other way round (every allocation taken out of the loop) is an improvement.
  const Analysis removed = analyze(config, testing::runs_of(one, none), Finality::final);
  CHECK(removed.verdict == Verdict::improvement);
  CHECK(testing::has_note(removed, "allocs: 1 allocs/iter → 0 (no allocation left in its loop)"));
}
