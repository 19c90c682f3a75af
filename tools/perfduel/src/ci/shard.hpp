#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/expected.hpp"

namespace perfduel {

// One CI job's part of the perf gates: shard `index` of `count`, both from 1.
struct Shard {
  int index = 1;
  int count = 1;
};

// Parses "K/N" with 1 <= K <= N (N at most 10000); the error quotes the text and says what
// was expected.
util::Expected<Shard> parse_shard(std::string_view text);

// The perf gates in `json`, the output of `ctest -N --show-only=json-v1`: the tests that carry
// the label `label` and set up or clean up no fixture (add_perf_gate's `perf.<name>.baseline`
// sets up the fixture its `perf.<name>` requires, and CTest adds it to whichever job runs that
// gate). In the order CTest lists them. The error says why `json` is not CTest's listing.
util::Expected<std::vector<std::string>> perf_gates(std::string_view json, std::string_view label);

// The gates of `shard`: `gates` sorted by name, then every `count`-th from the `index`-th
// (round robin). Together the shards hold every gate exactly once; each holds ⌊n/N⌋ or ⌈n/N⌉
// of them; some are empty when there are fewer gates than shards.
std::vector<std::string> gates_of_shard(std::vector<std::string> gates, Shard shard);

// A regular expression for `ctest -R` (CMake's syntax) that matches exactly the test names
// `names`, each escaped: "^(perf\.a|perf\.b)$". For no names, "^$", which matches no test
// (CTest allows no empty test name).
std::string exact_names_regex(const std::vector<std::string>& names);

}  // namespace perfduel
