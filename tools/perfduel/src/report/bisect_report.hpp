#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "bisect/commit_chain.hpp"
#include "bisect/search.hpp"
#include "bisect/setup.hpp"

// What `perfduel bisect` tells: progress lines while it searches, the answer with its claim and
// error, and the table of every duel (the JSON report of the whole search: report/bisect_json.hpp).
namespace perfduel::bisect {

// The lines that open a search: what is searched, what bad means, the duels' confidence.
std::string format_start(const BisectContext& context);

// The progress line before building commit `index` (a probe: which one, how many candidates
// are left, about how many duels and how long).
std::string format_building(const BisectContext& context, const SearchState& state, std::size_t index);

// The line after the last build of `state`.
std::string format_built(const BisectContext& context, const SearchState& state);

// The line before a duel: the endpoints, the confirmation, or a second attempt.
std::string format_dueling(const BisectContext& context, const SearchState& state, const DuelRecord& duel);

// The line after the last duel of `state`: its reading, change, interval, rounds and time.
std::string format_dueled(const BisectContext& context, const SearchState& state);

// The answer for stdout: the first bad commit with its change and interval against its parent
// and against --good (or why there is none), the table of every duel (commit, subject, against,
// verdict, change, interval, rounds, build and duel seconds), the skipped commits and why, the
// claim with its error, and that other regressions may exist after it.
std::string format_result(const BisectContext& context, const SearchState& state, double elapsed_seconds);

}  // namespace perfduel::bisect
