#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "run/profile.hpp"
#include "util/name_table.hpp"

// Where a counted change happened: a metric's change between the two sides attributed to the
// functions whose own cost changed, the way a round's change is attributed to metrics. Pure:
// two profiles in (run/profile.hpp, per iteration or per run), the functions that carry the
// change out. A function is matched across the builds by its demangled name; one on one side
// only is added or removed. Cost that moved between a function and its caller (an inlined
// helper, or one split out) is told apart from cost that was added.
namespace perfduel {

// How a function's own cost changed between the two sides.
enum class FunctionChange { changed, added, removed };
inline constexpr util::NameTable<FunctionChange, 3> k_function_change_names{
    {{FunctionChange::changed, "changed"},
     {FunctionChange::added, "added"},
     {FunctionChange::removed, "removed"}}};

// One function's part in a change.
struct FunctionShare {
  std::string name;
  // Where, with debug information: the source line whose own instructions changed most in the
  // direction of the function's change (inlined code at the line it came from, in its header),
  // else the function's first line; empty and 0 without.
  std::string file;
  int line = 0;
  double baseline = 0;  // its own cost (instructions or estimated cycles) per iteration or run
  double candidate = 0;
  double baseline_inclusive = 0;  // with its callees' (instructions)
  double candidate_inclusive = 0;
  // Of its change, the cost that moved in (> 0) or out (< 0) with an inlined or split-out
  // function (CostMove), in the same unit.
  double moved = 0;
  // (candidate − baseline − moved) / the change of the total: its part in the change, moved cost
  // left out.
  double share = 0;
  FunctionChange change = FunctionChange::changed;
};

// Cost that moved from one function into another: `from`, whose calls went (inlined into `into`)
// or came (split out of `into`), `amount` the cost of those calls on the side that had them.
struct CostMove {
  std::string from;
  std::string into;
  double amount = 0;
  FunctionChange from_change = FunctionChange::removed;  // removed: inlined; added: split out
};

// What the profiles say of a change.
enum class ProfileReading {
  explained,      // the functions named carry the change
  moved,          // cost moved between functions (inlining), hardly any added
  no_change,      // the totals agree: nothing to explain
  not_by_counts,  // (a timed metric) the counted event barely moved while the metric did
};
inline constexpr util::NameTable<ProfileReading, 4> k_reading_names{
    {{ProfileReading::explained, "explained"},
     {ProfileReading::moved, "moved"},
     {ProfileReading::no_change, "no-change"},
     {ProfileReading::not_by_counts, "not-by-counts"}}};

// A change attributed to functions.
struct Attribution {
  double baseline_total = 0;  // the sum of every function's own cost
  double candidate_total = 0;
  // The functions whose own cost changed most in the direction of the change first, then those
  // against it; only those that changed by at least k_least_share of the change, at most
  // k_most_functions.
  std::vector<FunctionShare> functions;
  std::vector<CostMove> moves;
  // The deepest function whose cost per call changed enough to carry k_culprit_share of the
  // change or more through its own code and what it calls (`share` its inclusive change over the
  // change): the function that changed when the extra instructions ran in functions it calls,
  // which themselves cost what they did per call (called more often, or with more work). None
  // when no one function carries the change.
  std::optional<FunctionShare> culprit;
  ProfileReading reading = ProfileReading::no_change;
};

// The least share of a change a culprit (Attribution::culprit) carries, and the most: a function
// whose inclusive change is far beyond the whole change is one that cost moved out of or into.
inline constexpr double k_culprit_share = 0.8;
inline constexpr double k_culprit_most_share = 1.25;

// The least share of a change a function must carry to be named, and the most functions kept.
inline constexpr double k_least_share = 0.02;
inline constexpr std::size_t k_most_functions = 12;
// A total changed by less than this part of itself has nothing to explain (two builds of one
// source agree to the instruction in a deterministic window; the rest is the counting's rounding).
inline constexpr double k_least_relative_change = 1e-5;

// The change from `baseline` to `candidate` attributed to functions, by their own instructions
// (`event` instructions) or estimated cycles (`event` cycles).
Attribution attribute_change(const Profile& baseline, const Profile& candidate, CountedEvent event);

// The functions of `attribution` that carry its change (share of the change positive), at most
// `count`: what a short "where" names.
std::vector<FunctionShare> leading_functions(const Attribution& attribution, std::size_t count);

}  // namespace perfduel
