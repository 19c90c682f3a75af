#pragma once

#include <nlohmann/json.hpp>

#include "bisect/search.hpp"
#include "bisect/setup.hpp"

// The JSON report of `perfduel bisect` (--json, and bisect.json in its work directory).
namespace perfduel::bisect {

// The whole search as JSON: endpoints, cut, confidences and error bound, every commit's state,
// every build and duel (with its report), the answer and the skipped commits.
nlohmann::ordered_json bisect_to_json(const BisectContext& context, const SearchState& state,
                                      double elapsed_seconds);

}  // namespace perfduel::bisect
