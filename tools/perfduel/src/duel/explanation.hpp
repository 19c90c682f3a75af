#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "duel/analysis.hpp"
#include "duel/attribution.hpp"
#include "duel/call_tree.hpp"
#include "run/profile.hpp"

// Which metrics a duel explains, from which profiles: a counted metric (source valgrind) by the
// profiles its own counted runs left, at no extra run; a timed metric that regressed by one
// counted run of each side made for it afterwards (duel/profiling.hpp).
namespace perfduel {

// The profiles of each counted benchmark on the two sides (baseline, candidate), by benchmark
// name; the whole process's under the empty name.
using SideProfiles = std::map<std::string, std::array<Profile, 2>>;

// How the profiles of an explanation were had.
enum class ProfileBasis {
  counted,   // the metric's own counted runs
  profiled,  // counted runs made after the duel for a timed metric
};
inline constexpr util::NameTable<ProfileBasis, 2> k_profile_basis_names{
    {{ProfileBasis::counted, "counted"}, {ProfileBasis::profiled, "profiled"}}};

// One metric's change attributed to functions.
struct Explanation {
  std::string metric;     // the metric's name
  std::string benchmark;  // the profile it read: a benchmark's name, empty for the whole process
  CountedEvent event = CountedEvent::instructions;
  ProfileBasis basis = ProfileBasis::counted;
  double metric_change = 0;  // the metric's measured relative change (exp(center) − 1)
  // A timed metric's (ProfileBasis::profiled): the relative change of the counted runs'
  // instructions and estimated cycles, whichever explains it.
  double instructions_change = 0;
  double cycles_change = 0;
  Attribution attribution;
  std::vector<CallTreeNode> tree;  // the differential call tree, in instructions (duel/call_tree.hpp)
};

// The profile key of `metric`: its benchmark when counted one benchmark at a time, else the
// whole process (empty).
std::string profile_key(const MetricSpec& metric);

// Whether a metric with `result` is worth explaining: a regression, an improvement, or a likely
// regression (MetricResult::likely_regression).
bool worth_explaining(const MetricResult& result);

// The explanations of every counted metric of `analysis` worth explaining whose benchmark has
// profiles on both sides in `profiles`, in the analysis's order.
std::vector<Explanation> explain_counted_metrics(const Analysis& analysis, const SideProfiles& profiles);

}  // namespace perfduel
