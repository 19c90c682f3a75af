// A timed regression explained by one counted run a side (duel/profiling.hpp): by instructions
// when they moved with the time, by estimated cycles when only those did, and by no function
// when neither did.
#include <catch2/catch.hpp>

#include "duel/profiling.hpp"

using namespace perfduel;

namespace {

MetricResult timed(double change, Verdict verdict = Verdict::regression) {
  MetricResult result;
  result.spec.name = "BM_walk/real_time";
  result.spec.source = MetricSource::google_benchmark;
  result.spec.benchmark = "BM_walk";
  result.spec.field = "real_time";
  result.spec.gating = Gating::gated;
  result.change = change;
  result.verdict = verdict;
  return result;
}

Profile profile(double walk_instructions, double walk_cycles) {
  Profile made;
  made.functions["walk"] = {walk_instructions, walk_instructions, walk_cycles, "walk.cc", 3, {}, 0};
  made.functions["sum"] = {1000, 1000, 1000, "sum.cc", 9, {}, 0};
  return made;
}

}  // namespace

TEST_CASE("a timed regression the instructions explain", "[profiling]") {
  const auto explanation = explain_timed(timed(0.12), profile(1000, 1000), profile(1240, 1240));
  CHECK(explanation.basis == ProfileBasis::profiled);
  CHECK(explanation.event == CountedEvent::instructions);
  CHECK(explanation.benchmark == "BM_walk");
  CHECK(explanation.attribution.reading == ProfileReading::explained);
  REQUIRE(explanation.attribution.functions.size() == 1);
  CHECK(explanation.attribution.functions[0].name == "walk");
}

TEST_CASE("a timed regression of cache misses: estimated cycles explain it", "[profiling]") {
  // The same instructions, five times the cycles in walk: its memory accesses miss.
  const auto explanation = explain_timed(timed(0.8), profile(1000, 1200), profile(1000, 6000));
  CHECK(explanation.event == CountedEvent::cycles);
  REQUIRE(explanation.attribution.functions.size() == 1);
  CHECK(explanation.attribution.functions[0].name == "walk");
}

TEST_CASE("a timed regression no count explains names no function", "[profiling]") {
  // Instructions +0.05 % against +10 % time, cycles as flat: the time went elsewhere.
  const auto explanation = explain_timed(timed(0.10), profile(1000, 1000), profile(1001, 1001));
  CHECK(explanation.attribution.reading == ProfileReading::not_by_counts);
  CHECK(explanation.attribution.functions.empty());
  // A count that moved the other way explains nothing either.
  CHECK(explain_timed(timed(0.10), profile(1000, 1000), profile(900, 900)).attribution.reading ==
        ProfileReading::not_by_counts);
}

TEST_CASE("which timed metrics are profiled", "[profiling]") {
  Analysis analysis;
  analysis.metrics = {timed(0.1), timed(-0.1, Verdict::improvement), timed(0.0, Verdict::no_change)};
  analysis.metrics[2].spec.source = MetricSource::valgrind;  // a count explains itself
  CHECK(timed_to_explain(Explain::failures, analysis).size() == 1);
  CHECK(timed_to_explain(Explain::always, analysis).size() == 2);
  CHECK(timed_to_explain(Explain::off, analysis).empty());
  analysis.metrics[0].spec.gating = Gating::report_only;
  CHECK(timed_to_explain(Explain::failures, analysis).empty());
}
