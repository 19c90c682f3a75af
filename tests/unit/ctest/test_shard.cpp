// A CI runner's share of the perf gates (ctest/shard.hpp), on the JSON CTest writes.
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "ctest/shard.hpp"

using namespace perfduel;

namespace {

// `ctest --show-only=json-v1` for gates a..e as add_perf_gate registers them: each gate
// followed by its .baseline fixture, as CTest numbers them, plus a unit test.
std::string ctest_json(const std::vector<std::string>& gates) {
  std::string tests;
  for (const auto& gate : gates) {
    tests += fmt::format(
        R"({{"name": "perf.{0}", "properties": [{{"name": "LABELS", "value": ["perf"]}},
            {{"name": "FIXTURES_REQUIRED", "value": ["perf.{0}.baseline"]}}]}},
           {{"name": "perf.{0}.baseline", "properties": [{{"name": "LABELS", "value": ["perf", "perf-baseline"]}},
            {{"name": "FIXTURES_SETUP", "value": ["perf.{0}.baseline"]}}]}},)",
        gate);
  }
  return R"({"kind": "ctestInfo", "tests": [)" + tests +
         R"({"name": "unit.parse", "properties": [{"name": "LABELS", "value": ["unit"]}]}]})";
}

}  // namespace

TEST_CASE("shards: K/N", "[shard]") {
  CHECK(parse_shard("2/3")->index == 2);
  CHECK(parse_shard("2/3")->count == 3);
  CHECK(parse_shard("1/1")->count == 1);
  for (const char* bad : {"0/2", "3/2", "2", "a/b", "1/0", "-1/2", "1/2/3", ""}) {
    INFO(bad);
    CHECK_FALSE(parse_shard(bad));
  }
  CHECK(parse_shard("3/2").error() ==
        "\"3/2\" is not a shard: write K/N, this runner's number K from 1 to the count N (2/3)");
}

TEST_CASE("shards: every gate in exactly one shard, fixtures left to CTest", "[shard]") {
  const auto gates = gate_tests(ctest_json({"e", "b", "a", "d", "c"}), "perf");
  REQUIRE(gates);
  CHECK(*gates == std::vector<std::string>{"perf.a", "perf.b", "perf.c", "perf.d", "perf.e"});
  for (int count = 1; count <= 7; ++count) {
    std::multiset<std::string> seen;
    for (int index = 1; index <= count; ++index) {
      const auto mine = gates_of_shard(*gates, Shard{index, count});
      seen.insert(mine.begin(), mine.end());
      // Balanced: shards differ by at most one gate.
      CHECK(mine.size() >= gates->size() / static_cast<std::size_t>(count));
      CHECK(mine.size() <= gates->size() / static_cast<std::size_t>(count) + 1);
    }
    CHECK(seen == std::multiset<std::string>(gates->begin(), gates->end()));
  }
  // The interleaved numbering that defeated `ctest -I 2,,2`: shard 2 of 2 gets gates, not fixtures.
  CHECK(gates_of_shard(*gates, Shard{2, 2}) == std::vector<std::string>{"perf.b", "perf.d"});
  CHECK(gates_of_shard(*gates, Shard{6, 7}).empty());
}

TEST_CASE("shards: the regex matches the names exactly", "[shard]") {
  CHECK(exact_names_regex({"perf.a", "perf.sort_speed"}) == "^(perf\\.a|perf\\.sort_speed)$");
  CHECK(exact_names_regex({"perf.x+y(1)[2]"}) == "^(perf\\.x\\+y\\(1\\)\\[2\\])$");
  CHECK(exact_names_regex({}).empty());
}

TEST_CASE("shards: input that is not CTest's JSON says so", "[shard]") {
  CHECK(gate_tests("Test project /x", "perf").error() ==
        "the input is not JSON (pipe in `ctest --test-dir BUILD -N --show-only=json-v1`)");
  CHECK(gate_tests("{}", "perf").error() ==
        "the JSON has no \"tests\" array (is it `ctest --show-only=json-v1` output?)");
  CHECK(gate_tests(R"({"tests": []})", "perf")->empty());
}
