#include "duel/attribution.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace perfduel {

namespace {

double own(const FunctionCost& cost, CountedEvent event) {
  return event == CountedEvent::cycles ? cost.self_cycles : cost.self;
}

// The caller whose calls of `callee` cost most in `profile`, and what they cost; none: 0.
std::pair<std::string, double> main_caller(const Profile& profile, const std::string& callee) {
  std::pair<std::string, double> found{"", 0.0};
  for (const auto& [call, cost] : profile.calls) {
    if (call.second == callee && call.first != callee && cost > found.second) {
      found = {call.first, cost};
    }
  }
  return found;
}

// The change of `name`'s own instructions from `from` to `to` (a function missing counts 0).
double own_change(const Profile& from, const Profile& to, const std::string& name) {
  const auto before = from.functions.find(name);
  const auto after = to.functions.find(name);
  return (after == to.functions.end() ? 0.0 : after->second.self) -
         (before == from.functions.end() ? 0.0 : before->second.self);
}

// Functions on `had` only, and called there, whose main caller's own instructions grew in
// `lacks` by at least half of what those calls cost: the callee was inlined into the caller (or,
// read from the candidate, split out of it). Half, because an inlined body is usually smaller
// than the call it replaces (no call, no prologue, constants folded) but not by more.
std::vector<CostMove> moves_between(const Profile& had, const Profile& lacks, FunctionChange from_change) {
  std::vector<CostMove> moves;
  for (const auto& [name, cost] : had.functions) {
    if (lacks.functions.contains(name)) {
      continue;
    }
    const auto [caller, amount] = main_caller(had, name);
    if (caller.empty() || !lacks.functions.contains(caller) || !had.functions.contains(caller)) {
      continue;
    }
    if (own_change(had, lacks, caller) >= 0.5 * amount) {
      moves.push_back({name, caller, amount, from_change});
    }
  }
  return moves;
}

// The line of `before` → `after` whose instructions changed most in the direction `sign`;
// none: an empty file.
std::pair<std::string, int> hot_line(const FunctionCost* before, const FunctionCost* after, double sign) {
  std::map<std::pair<std::string, int>, double> change;
  if (after != nullptr) {
    change = after->lines;
  }
  if (before != nullptr) {
    for (const auto& [line, instructions] : before->lines) {
      change[line] -= instructions;
    }
  }
  std::pair<std::string, int> hottest{"", 0};
  double most = 0;
  for (const auto& [line, instructions] : change) {
    if (sign * instructions > most) {
      most = sign * instructions;
      hottest = line;
    }
  }
  return hottest;
}

// Whether `function`'s cost per call changed by at least half as much as its inclusive cost, in
// relative terms: not only called more (or less) often at the same cost per call. A function on
// one side only changed; one no function called in the window counts one call.
bool cost_per_call_changed(const FunctionShare& function, const Profile& baseline, const Profile& candidate) {
  if (function.change != FunctionChange::changed) {
    return true;
  }
  const double calls_before = std::max(baseline.functions.at(function.name).calls, 1.0);
  const double calls_after = std::max(candidate.functions.at(function.name).calls, 1.0);
  const double before = function.baseline_inclusive / calls_before;
  const double after = function.candidate_inclusive / calls_after;
  const double inclusive_change = std::abs(function.candidate_inclusive - function.baseline_inclusive) /
                                  std::max(function.baseline_inclusive, 1.0);
  return std::abs(after - before) / std::max(before, 1e-9) >= 0.5 * inclusive_change;
}

// The culprit among `all` (Attribution::culprit) of a change `change` in instructions.
std::optional<FunctionShare> find_culprit(const std::vector<FunctionShare>& all, double change,
                                          const Profile& baseline, const Profile& candidate) {
  std::optional<FunctionShare> found;
  for (const FunctionShare& function : all) {
    const double share = (function.candidate_inclusive - function.baseline_inclusive) / change;
    if (share < k_culprit_share || share > k_culprit_most_share ||
        !cost_per_call_changed(function, baseline, candidate)) {
      continue;
    }
    const double size = std::max(function.baseline_inclusive, function.candidate_inclusive);
    if (!found || size < std::max(found->baseline_inclusive, found->candidate_inclusive)) {
      found = function;
      found->share = share;
    }
  }
  return found;
}

}  // namespace

Attribution attribute_change(const Profile& baseline, const Profile& candidate, CountedEvent event) {
  Attribution attribution;
  std::set<std::string> names;
  for (const auto* profile : {&baseline, &candidate}) {
    for (const auto& [name, cost] : profile->functions) {
      names.insert(name);
    }
  }
  std::vector<FunctionShare> all;
  for (const auto& name : names) {
    const auto b = baseline.functions.find(name);
    const auto c = candidate.functions.find(name);
    const bool in_baseline = b != baseline.functions.end();
    const bool in_candidate = c != candidate.functions.end();
    const FunctionCost& place = in_candidate ? c->second : b->second;
    FunctionShare share{name, place.file, place.line};
    const double own_change = (in_candidate ? c->second.self : 0.0) - (in_baseline ? b->second.self : 0.0);
    if (auto [file, line] = hot_line(in_baseline ? &b->second : nullptr, in_candidate ? &c->second : nullptr,
                                     own_change < 0 ? -1.0 : 1.0);
        !file.empty()) {
      share.file = std::move(file);
      share.line = line;
    }
    share.baseline = in_baseline ? own(b->second, event) : 0.0;
    share.candidate = in_candidate ? own(c->second, event) : 0.0;
    share.baseline_inclusive = in_baseline ? b->second.inclusive : 0.0;
    share.candidate_inclusive = in_candidate ? c->second.inclusive : 0.0;
    share.change = !in_baseline    ? FunctionChange::added
                   : !in_candidate ? FunctionChange::removed
                                   : FunctionChange::changed;
    attribution.baseline_total += share.baseline;
    attribution.candidate_total += share.candidate;
    all.push_back(std::move(share));
  }
  const double change = attribution.candidate_total - attribution.baseline_total;
  if (std::abs(change) <= k_least_relative_change * std::max(std::abs(attribution.baseline_total), 1.0)) {
    return attribution;
  }
  // Cost moved with inlining: the removed (or added) function's calls went into its caller.
  attribution.moves = moves_between(baseline, candidate, FunctionChange::removed);
  auto split = moves_between(candidate, baseline, FunctionChange::added);
  attribution.moves.insert(attribution.moves.end(), split.begin(), split.end());
  double moved_total = 0;
  for (const CostMove& move : attribution.moves) {
    // Counted in instructions; for estimated cycles scaled as the callee's own cost scales.
    const double sign = move.from_change == FunctionChange::removed ? 1.0 : -1.0;
    for (auto& share : all) {
      if (share.name == move.into) {
        share.moved += sign * move.amount;
      } else if (share.name == move.from) {
        share.moved -= sign * move.amount;
      }
    }
    moved_total += move.amount;
  }
  for (auto& share : all) {
    share.share = (share.candidate - share.baseline - share.moved) / change;
  }
  if (event == CountedEvent::instructions) {  // inclusive costs are counted in instructions
    attribution.culprit = find_culprit(all, change, baseline, candidate);
  }
  std::erase_if(all, [](const FunctionShare& share) { return std::abs(share.share) < k_least_share; });
  // With the change first, largest share first; then against it, largest first.
  std::sort(all.begin(), all.end(), [](const FunctionShare& a, const FunctionShare& b) {
    if ((a.share > 0) != (b.share > 0)) {
      return a.share > 0;
    }
    return std::abs(a.share) > std::abs(b.share);
  });
  if (all.size() > k_most_functions) {
    all.resize(k_most_functions);
  }
  attribution.functions = std::move(all);
  attribution.reading =
      moved_total >= 4 * std::abs(change) ? ProfileReading::moved : ProfileReading::explained;
  return attribution;
}

std::vector<FunctionShare> leading_functions(const Attribution& attribution, std::size_t count) {
  std::vector<FunctionShare> leading;
  for (const auto& share : attribution.functions) {
    if (share.share > 0 && leading.size() < count) {
      leading.push_back(share);
    }
  }
  return leading;
}

}  // namespace perfduel
