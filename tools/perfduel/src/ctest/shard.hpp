#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace perfduel {

// One of `count` CI runners sharing the perf gates: `index` from 1 to `count`.
struct Shard {
  int index = 1;
  int count = 1;
};

// "K/N" as written on the command line or taken from a CI matrix ("2/3"); the error says
// what was expected.
util::Expected<Shard> parse_shard(std::string_view text);

// The gate tests in `ctest_json`, the output of `ctest -N --show-only=json-v1`: the tests that
// carry `label` and set up no fixture (add_perf_gate's `.baseline` builds set one up and come
// along with their gate when CTest runs it), sorted by name. The error names what was wrong.
util::Expected<std::vector<std::string>> gate_tests(const std::string& ctest_json, const std::string& label);

// The gates of `shard`: every `count`-th of the sorted `gates`, starting with the `index`-th.
// Each gate falls in exactly one shard and the shards together hold every gate, whatever order
// CTest numbers the tests in (its numbering interleaves the fixtures, so `ctest -I` cannot split
// gates), and a runner that lists the tests again gets the same split.
std::vector<std::string> gates_of_shard(const std::vector<std::string>& gates, Shard shard);

// A `ctest -R` regular expression that matches exactly `names`: "^(perf\.a|perf\.b)$", with
// every character CTest's regular expressions give a meaning escaped. Empty for no name.
std::string exact_names_regex(const std::vector<std::string>& names);

}  // namespace perfduel
