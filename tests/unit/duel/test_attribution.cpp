// A counted change attributed to functions (duel/attribution.hpp): the functions that carry it,
// each with its share; functions on one side only; cost that moved with inlining told apart
// from cost that was added; and nothing named when nothing changed.
#include <string>

#include <catch2/catch.hpp>

#include "duel/attribution.hpp"

using namespace perfduel;

namespace {

Profile profile(std::initializer_list<std::pair<const std::string, FunctionCost>> functions) {
  Profile made;
  made.functions = functions;
  return made;
}

}  // namespace

TEST_CASE("a slower function carries the change, its callers none", "[attribution]") {
  const Profile baseline =
      profile({{"BM_crc", {200, 10200, 0, "bench.cc", 12, {}, 0}},
               {"crc32(char const*, unsigned long)", {10000, 10000, 0, "crc.cc", 40, {}, 0}},
               {"memcpy", {500, 500, 0, "", 0, {}, 0}}});
  const Profile candidate =
      profile({{"BM_crc", {200, 10300, 0, "bench.cc", 12, {}, 0}},
               {"crc32(char const*, unsigned long)", {10100, 10100, 0, "crc.cc", 40, {}, 0}},
               {"memcpy", {500, 500, 0, "", 0, {}, 0}}});
  const Attribution found = attribute_change(baseline, candidate, CountedEvent::instructions);
  CHECK(found.reading == ProfileReading::explained);
  CHECK(found.baseline_total == 10700.0);
  CHECK(found.candidate_total == 10800.0);
  REQUIRE(found.functions.size() == 1);
  CHECK(found.functions[0].name == "crc32(char const*, unsigned long)");
  CHECK(found.functions[0].share == Approx(1.0));
  CHECK(found.functions[0].file == "crc.cc");
  CHECK(found.functions[0].line == 40);
  CHECK(found.functions[0].baseline_inclusive == 10000.0);
  CHECK(leading_functions(found, 3).size() == 1);
}

TEST_CASE("shares of several functions, with and against the change, and one added", "[attribution]") {
  const Profile baseline =
      profile({{"a", {1000, 1000, 0, "", 0, {}, 0}}, {"b", {1000, 1000, 0, "", 0, {}, 0}}});
  const Profile candidate = profile({{"a", {1300, 1300, 0, "", 0, {}, 0}},
                                     {"b", {900, 900, 0, "", 0, {}, 0}},
                                     {"c", {0.5, 0.5, 0, "", 0, {}, 0}}});
  const Attribution found = attribute_change(baseline, candidate, CountedEvent::instructions);
  // +200.5 in all: a +300, b −100, c +0.5 (a quarter of a per cent: below the least share).
  REQUIRE(found.functions.size() == 2);
  CHECK(found.functions[0].name == "a");
  CHECK(found.functions[0].share == Approx(300 / 200.5));
  CHECK(found.functions[1].name == "b");
  CHECK(found.functions[1].share == Approx(-100 / 200.5));
  CHECK(leading_functions(found, 3).size() == 1);

  const Profile with_new = profile({{"a", {1000, 1000, 0, "", 0, {}, 0}},
                                    {"b", {1000, 1000, 0, "", 0, {}, 0}},
                                    {"new_check()", {100, 100, 0, "", 0, {}, 0}}});
  const Attribution added = attribute_change(baseline, with_new, CountedEvent::instructions);
  REQUIRE(added.functions.size() == 1);
  CHECK(added.functions[0].change == FunctionChange::added);
  CHECK(added.functions[0].share == Approx(1.0));
}

TEST_CASE("an inlined helper: cost moved into its caller, not added", "[attribution]") {
  Profile baseline = profile({{"work(int)", {110008, 3149808, 0, "", 0, {}, 0}},
                              {"helper(int)", {3039800, 3039800, 0, "", 0, {}, 0}}});
  baseline.calls[{"work(int)", "helper(int)"}] = 3039800;
  // The candidate inlined helper: work's own cost holds the loop now, a little less of it.
  const Profile candidate = profile({{"work(int)", {3100000, 3100000, 0, "", 0, {}, 0}}});
  const Attribution found = attribute_change(baseline, candidate, CountedEvent::instructions);
  CHECK(found.reading == ProfileReading::moved);
  REQUIRE(found.moves.size() == 1);
  CHECK(found.moves[0].from == "helper(int)");
  CHECK(found.moves[0].into == "work(int)");
  CHECK(found.moves[0].from_change == FunctionChange::removed);
  // Moved cost left out, work itself did 3,039,800 − 2,989,992 = 49,808 fewer: all of the change.
  REQUIRE_FALSE(found.functions.empty());
  CHECK(found.functions[0].name == "work(int)");
  CHECK(found.functions[0].share == Approx(1.0));
  CHECK(leading_functions(found, 3).size() == 1);

  // The other way round: a function split out of its caller.
  Profile split = profile({{"work(int)", {110008, 3149808, 0, "", 0, {}, 0}},
                           {"helper(int)", {3039900, 3039900, 0, "", 0, {}, 0}}});
  split.calls[{"work(int)", "helper(int)"}] = 3039800;
  const Attribution outlined = attribute_change(profile({{"work(int)", {3149808, 3149808, 0, "", 0, {}, 0}}}),
                                                split, CountedEvent::instructions);
  CHECK(outlined.reading == ProfileReading::moved);
  REQUIRE(outlined.moves.size() == 1);
  CHECK(outlined.moves[0].from_change == FunctionChange::added);
}

TEST_CASE("an inlined helper beside a real addition: explained, the addition named", "[attribution]") {
  Profile baseline = profile({{"work", {1000, 2000, 0, "", 0, {}, 0}},
                              {"helper", {1000, 1000, 0, "", 0, {}, 0}},
                              {"parse", {5000, 5000, 0, "", 0, {}, 0}}});
  baseline.calls[{"work", "helper"}] = 1000;
  const Profile candidate =
      profile({{"work", {1950, 1950, 0, "", 0, {}, 0}}, {"parse", {6000, 6000, 0, "", 0, {}, 0}}});
  const Attribution found = attribute_change(baseline, candidate, CountedEvent::instructions);
  CHECK(found.reading == ProfileReading::explained);
  const auto leading = leading_functions(found, 3);
  REQUIRE_FALSE(leading.empty());
  CHECK(leading[0].name == "parse");
  CHECK(leading[0].share == Approx(1000.0 / 950));
}

TEST_CASE("equal totals name no function", "[attribution]") {
  const Profile same = profile({{"a", {1000, 1000, 0, "", 0, {}, 0}}, {"b", {10, 10, 0, "", 0, {}, 0}}});
  const Attribution found = attribute_change(same, same, CountedEvent::instructions);
  CHECK(found.reading == ProfileReading::no_change);
  CHECK(found.functions.empty());
}

TEST_CASE("estimated cycles: the function whose misses grew", "[attribution]") {
  const Profile baseline =
      profile({{"walk", {1000, 1000, 1200, "", 0, {}, 0}}, {"sum", {1000, 1000, 1000, "", 0, {}, 0}}});
  const Profile candidate =
      profile({{"walk", {1000, 1000, 9000, "", 0, {}, 0}}, {"sum", {1000, 1000, 1000, "", 0, {}, 0}}});
  CHECK(attribute_change(baseline, candidate, CountedEvent::instructions).reading ==
        ProfileReading::no_change);
  const Attribution cycles = attribute_change(baseline, candidate, CountedEvent::cycles);
  REQUIRE(cycles.functions.size() == 1);
  CHECK(cycles.functions[0].name == "walk");
  CHECK(cycles.functions[0].share == Approx(1.0));
}

TEST_CASE("a function's place is the line whose cost changed most", "[attribution]") {
  FunctionCost before{1000, 1000, 0, "sort.cc", 10, {{{"sort.cc", 10}, 100}, {{"sort.cc", 17}, 900}}, 0};
  FunctionCost after{1500, 1500,
                     0,    "sort.cc",
                     10,   {{{"sort.cc", 10}, 100}, {{"sort.cc", 17}, 1000}, {{"stl_algo.h", 1820}, 400}},
                     0};
  Profile baseline;
  baseline.functions["quick_sort"] = before;
  Profile candidate;
  candidate.functions["quick_sort"] = after;
  const Attribution found = attribute_change(baseline, candidate, CountedEvent::instructions);
  REQUIRE(found.functions.size() == 1);
  CHECK(found.functions[0].file == "stl_algo.h");
  CHECK(found.functions[0].line == 1820);
}

TEST_CASE("the culprit: the function that calls more, not the callees that cost the same per call",
          "[attribution]") {
  // sort_work sorts 101 times instead of 100: std::sort costs what it did per call, called 1 %
  // more often; the instructions ran in std::sort's parts, sort_work's own code has a little.
  const auto side = [](double sorts) {
    Profile profile;
    const double sort_cost = 1000;
    profile.functions["BM_sort"] = {10, 10 + sorts * (sort_cost + 20), 0, "bench.cc", 5, {}, 0};
    profile.functions["sort_work(int)"] = {sorts * 20, sorts * (sort_cost + 20), 0, "bench.cc", 30, {}, 1};
    profile.functions["std::sort"] = {sorts * 100, sorts * sort_cost, 0, "", 0, {}, sorts};
    profile.functions["std::__introsort_loop"] = {sorts * 600, sorts * 600, 0, "", 0, {}, sorts};
    profile.functions["std::__insertion_sort"] = {sorts * 300, sorts * 300, 0, "", 0, {}, sorts};
    return profile;
  };
  const Attribution found = attribute_change(side(100), side(101), CountedEvent::instructions);
  REQUIRE(found.culprit);
  CHECK(found.culprit->name == "sort_work(int)");
  CHECK(found.culprit->share == Approx(1.0));
  // Its own code carries 2 % of the change: the functions by own cost are spread.
  REQUIRE_FALSE(found.functions.empty());
  CHECK(found.functions[0].name == "std::__introsort_loop");

  // A slower function called as often: it is both the culprit and the first by its own cost.
  Profile slower = side(100);
  slower.functions["std::__insertion_sort"].self *= 1.1;
  slower.functions["std::__insertion_sort"].inclusive *= 1.1;
  const Attribution direct = attribute_change(side(100), slower, CountedEvent::instructions);
  REQUIRE(direct.culprit);
  CHECK(direct.culprit->name == "std::__insertion_sort");
}
