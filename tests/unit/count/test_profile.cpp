// A counted run's functions (count/profile.hpp): their own and inclusive costs read from callgrind's
// and cachegrind's files, and the arithmetic that turns two windows into a cost per iteration.
// The callgrind fixture is cut from a real dump of Valgrind 3.19 (a program built with -O2 -g
// whose work(int) calls helper(int) 10,000 times), names and positions compressed as written.
#include <string>

#include <catch2/catch.hpp>

#include "count/profile.hpp"

using namespace perfduel;

namespace {

constexpr const char* k_callgrind =
    "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
    "desc: Trigger: Program termination\n\npositions: line\nevents: Ir\nsummary: 3149908\n\n"
    "ob=(5) /tmp/cg/t\nfl=(139) ???\nfn=(516) 0x0000000000001160\n0 12\n\n"
    "fl=(146) /tmp/cg/t.cpp\nfn=(538) work(int)\n3 14\ncfn=(540) helper(int)\ncalls=1 -1 \n* 5\n* 79992\n"
    "cfn=(540)\ncalls=9999 -1 \n* 3039795\n* 30002\n\n"
    "fn=(536) main\ncfn=(538)\ncalls=1 3 \n4 3149808\n4 4\n\n"
    "fn=(540)\n2 3039800\n\ntotals: 3149908\n";

}  // namespace

TEST_CASE("a callgrind dump's functions: own cost, with callees, and where", "[profile]") {
  const auto profile = parse_profile(k_callgrind);
  REQUIRE(profile);
  const auto& work = profile->functions.at("work(int)");
  CHECK(work.self == 14.0 + 79992 + 30002);
  CHECK(work.inclusive == work.self + 5 + 3039795);
  CHECK(work.file == "/tmp/cg/t.cpp");
  CHECK(work.line == 3);
  const auto& helper = profile->functions.at("helper(int)");
  CHECK(helper.self == 3039800.0);
  CHECK(helper.inclusive == 3039800.0);
  CHECK(helper.line == 2);
  CHECK(profile->functions.at("main").self == 4.0);
  CHECK(profile->functions.at("main").inclusive == 3149812.0);
  CHECK(profile->calls.at({"work(int)", "helper(int)"}) == 5.0 + 3039795);
  CHECK(profile->calls.at({"main", "work(int)"}) == 3149808.0);
  // Code without a symbol is named by its object: its address moves between builds.
  CHECK(profile->functions.at("(no symbol) in t").self == 12.0);
  CHECK(profile->functions.at("(no symbol) in t").file.empty());
  CHECK(total_instructions(*profile) == 12.0 + work.self + 4 + 3039800);
}

TEST_CASE("a cachegrind file's functions, and estimated cycles with the cache simulation", "[profile]") {
  const auto profile = parse_profile(
      "desc: I1 cache: 32768 B, 64 B, 8-way associative\ncmd: ./prog\n"
      "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
      "fl=/src/a.c\nfn=walk\n10 100 40 0 1 2 0 0 1\n12 50\nfn=main\n3 7\n"
      "fl=/src/b.c\nfn=walk\n5 10\nfn=(anonymous namespace)::burn(double)\n7 3\nfn=(below main)\n0 1\n"
      "summary: 171 40 0 1 2 0 0 1\n");
  REQUIRE(profile);
  const auto& walk = profile->functions.at("walk");
  CHECK(walk.self == 160.0);
  CHECK(walk.inclusive == 160.0);
  // Every instruction one cycle, a first-level miss 10 more, a last-level miss 100 more.
  CHECK(walk.self_cycles == 160.0 + 10 * (1 + 2) + 100 * 1);
  CHECK(walk.file == "/src/a.c");
  CHECK(walk.line == 10);
  CHECK(profile->functions.at("main").self == 7.0);
  // Uncompressed names that start with a parenthesis are names, not ids.
  CHECK(profile->functions.at("(anonymous namespace)::burn(double)").self == 3.0);
  CHECK(profile->functions.at("(below main)").self == 1.0);
}

TEST_CASE("a malformed cost line is an error naming its line", "[profile]") {
  const auto profile = parse_profile("events: Ir\nfn=f\n3 12x\n");
  REQUIRE_FALSE(profile);
  CHECK(profile.error() == "line 3: cost \"12x\" of Ir is not a whole number");
}

TEST_CASE("two windows' difference per iteration, and sums", "[profile]") {
  Profile small;
  small.functions["loop"] = {100, 300, 0, "a.cc", 4, {}, 0};
  small.functions["setup"] = {50, 50, 0, "", 0, {}, 0};
  small.calls[{"loop", "step"}] = 200;
  Profile large;
  large.functions["loop"] = {1000, 3000, 0, "a.cc", 4, {}, 0};
  large.functions["setup"] = {50, 50, 0, "", 0, {}, 0};
  large.functions["step"] = {1800, 1800, 0, "b.cc", 9, {}, 0};
  large.calls[{"loop", "step"}] = 2000;
  // 10 and 100 iterations: 90 more.
  const Profile per_iteration = profile_difference(large, small, 90);
  CHECK(per_iteration.functions.at("loop").self == Approx(10.0));
  CHECK(per_iteration.functions.at("loop").inclusive == Approx(30.0));
  CHECK(per_iteration.functions.at("setup").self == 0.0);
  CHECK(per_iteration.functions.at("step").self == Approx(20.0));
  CHECK(per_iteration.functions.at("step").file == "b.cc");
  CHECK(per_iteration.calls.at({"loop", "step"}) == Approx(20.0));
  Profile sum = small;
  add_profile(sum, large);
  CHECK(sum.functions.at("loop").self == 1100.0);
  CHECK(sum.functions.at("step").line == 9);
  CHECK(scaled_profile(large, 10).functions.at("step").self == 180.0);
}

TEST_CASE("a recursive function's levels are one function", "[profile]") {
  // Callgrind's --separate-recs names the deeper levels "'2", "'3"; their calls of each other
  // are the function's own cost.
  const auto profile = parse_profile(
      "events: Ir\nfn=(1) sort(int*)\n5 100\ncfn=(2) sort(int*)'2\ncalls=3 5\n5 900\n"
      "cfn=(3) swap(int&, int&)\ncalls=1 9\n6 50\nfn=(2)\n5 850\ncfn=(3)\ncalls=2 9\n6 50\n"
      "fn=(3)\n9 100\n");
  REQUIRE(profile);
  const auto& sort = profile->functions.at("sort(int*)");
  CHECK(sort.self == 950.0);
  CHECK(sort.inclusive == 1050.0);
  CHECK(profile->functions.size() == 2);
  CHECK(profile->calls.at({"sort(int*)", "swap(int&, int&)"}) == 100.0);
}

TEST_CASE("a function's own instructions by source line, inlined code at its own file", "[profile]") {
  const auto profile = parse_profile(
      "positions: line\nevents: Ir\nfl=(1) /src/sort.cc\nfn=(1) quick_sort(int*)\n20 10\n+2 30\n"
      "fi=(2) /usr/include/c++/12/bits/stl_algo.h\n1820 500\nfe=(1)\n23 7\n");
  REQUIRE(profile);
  const auto& lines = profile->functions.at("quick_sort(int*)").lines;
  CHECK(lines.at({"/src/sort.cc", 20}) == 10.0);
  CHECK(lines.at({"/src/sort.cc", 22}) == 30.0);
  CHECK(lines.at({"/usr/include/c++/12/bits/stl_algo.h", 1820}) == 500.0);
  CHECK(lines.at({"/src/sort.cc", 23}) == 7.0);
  CHECK(profile->functions.at("quick_sort(int*)").line == 20);
}
