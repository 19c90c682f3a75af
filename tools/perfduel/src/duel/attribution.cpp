#include "duel/attribution.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
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

// Cost that moved between functions: per caller present on both sides, the functions it called
// that only the baseline has (inlined into it) and those only the candidate has (split out of
// it), each found by its main caller. The moves are taken when the caller's own instructions
// changed by what moved in less what moved out, within half of all that moved: an inlined body
// is usually smaller than the call it replaces (no call, no prologue, constants folded), but not
// by more. Both directions at once (one helper inlined, another split out) read as one change.
std::vector<CostMove> find_moves(const Profile& baseline, const Profile& candidate) {
  std::map<std::string, std::vector<CostMove>> by_caller;
  const auto collect = [&](const Profile& had, const Profile& lacks, FunctionChange kind) {
    for (const auto& [name, cost] : had.functions) {
      if (lacks.functions.contains(name)) {
        continue;
      }
      const auto [caller, amount] = main_caller(had, name);
      if (caller.empty() || !baseline.functions.contains(caller) || !candidate.functions.contains(caller)) {
        continue;
      }
      by_caller[caller].push_back(kind == FunctionChange::removed ? CostMove{name, caller, amount, kind}
                                                                  : CostMove{caller, name, amount, kind});
    }
  };
  collect(baseline, candidate, FunctionChange::removed);
  collect(candidate, baseline, FunctionChange::added);
  std::vector<CostMove> moves;
  for (const auto& [caller, found] : by_caller) {
    double in = 0;
    double out = 0;
    for (const CostMove& move : found) {
      (move.from_change == FunctionChange::removed ? in : out) += move.amount;
    }
    if (std::abs(own_change(baseline, candidate, caller) - (in - out)) <= 0.5 * (in + out)) {
      moves.insert(moves.end(), found.begin(), found.end());
    }
  }
  return moves;
}

// A function's own instructions by file name and line, and each one's full path: the baseline is
// built from another directory (a worktree), so only the name can match.
using LineCosts = std::map<std::pair<std::string, int>, std::pair<double, std::string>>;

LineCosts by_file_name(const FunctionCost& cost) {
  LineCosts lines;
  for (const auto& [line, instructions] : cost.lines) {
    auto& entry = lines[{std::filesystem::path(line.first).filename().string(), line.second}];
    entry.first += instructions;
    entry.second = line.first;
  }
  return lines;
}

// The shifts of line numbers from `before` to `after` that lines agree at: 0, and each by which at
// least two lines of `after` count within 1 % of what a line that many lines up counted in
// `before` (lines added or removed above move the unchanged ones below by that much; an unchanged
// line counts about the same, the compiler's choices around new code aside; one line agreeing
// can be chance). At most k_most_line_shifts lines apart.
constexpr int k_most_line_shifts = 200;

std::vector<int> line_shifts(const LineCosts& before, const LineCosts& after) {
  std::map<int, int> agreeing;
  for (const auto& [line, cost] : after) {
    for (const auto& [old_line, old_cost] : before) {
      const int shift = line.second - old_line.second;
      if (line.first == old_line.first && std::abs(shift) <= k_most_line_shifts && shift != 0 &&
          std::abs(cost.first - old_cost.first) <= 0.01 * std::max(cost.first, old_cost.first) &&
          cost.first > 0) {
        ++agreeing[shift];
      }
    }
  }
  std::vector<int> shifts{0};
  for (const auto& [shift, lines] : agreeing) {
    if (lines >= 2) {
      shifts.push_back(shift);
    }
  }
  return shifts;
}

// The line of `before` → `after` whose instructions changed most in the direction `sign`, each line
// of `after` compared with the line of `before` it most likely is (line_shifts: the one at a shift
// that counts closest to it), a line new or gone counting 0 on the other side; none (an empty
// file) when no line changed that way. A function on one side only: its costliest line.
std::pair<std::string, int> hot_line(const FunctionCost* before, const FunctionCost* after, double sign) {
  const LineCosts lines_before = before == nullptr ? LineCosts() : by_file_name(*before);
  const LineCosts lines_after = after == nullptr ? LineCosts() : by_file_name(*after);
  const LineCosts& compared = sign > 0 ? lines_after : lines_before;  // where the change shows
  const LineCosts& other = sign > 0 ? lines_before : lines_after;
  const std::vector<int> shifts = sign > 0 ? line_shifts(other, compared) : line_shifts(compared, other);
  std::pair<std::string, int> hottest{"", 0};
  double most = 0;
  for (const auto& [line, cost] : compared) {
    double counterpart = 0;
    double closest = cost.first;
    for (const int shift : shifts) {
      const auto found = other.find({line.first, line.second - (sign > 0 ? shift : -shift)});
      if (found != other.end() && std::abs(found->second.first - cost.first) < closest) {
        closest = std::abs(found->second.first - cost.first);
        counterpart = found->second.first;
      }
    }
    if (cost.first - counterpart > most) {
      most = cost.first - counterpart;
      hottest = {cost.second, line.second};
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

// Function `name`'s own cost on each side, in `event`, its inclusive instructions and where its
// cost changed most (hot_line); the share of the change is left to the caller.
FunctionShare function_share(const std::string& name, const Profile& baseline, const Profile& candidate,
                             CountedEvent event) {
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
  return share;
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
    FunctionShare share = function_share(name, baseline, candidate, event);
    attribution.baseline_total += share.baseline;
    attribution.candidate_total += share.candidate;
    all.push_back(std::move(share));
  }
  const double change = attribution.candidate_total - attribution.baseline_total;
  if (std::abs(change) <= k_least_relative_change * std::max(std::abs(attribution.baseline_total), 1.0)) {
    return attribution;
  }
  // Cost moved with inlining: what moved is left out of both functions' shares.
  attribution.moves = find_moves(baseline, candidate);
  double moved_total = 0;
  for (const CostMove& move : attribution.moves) {
    for (auto& share : all) {
      if (share.name == move.into) {
        share.moved += move.amount;
      } else if (share.name == move.from) {
        share.moved -= move.amount;
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
