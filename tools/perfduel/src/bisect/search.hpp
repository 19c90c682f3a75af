#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "util/name_table.hpp"

// The walk of `perfduel bisect`: which commit to probe next, what a probe's duel means for the
// search, when a probe is skipped and when the search is done. Pure logic over an Oracle that
// builds and duels (real processes in the command, a script in the tests), so that the walk is
// tested without building or timing anything.
//
// The commits are a first-parent chain 0..last: 0 is --good, `last` is --bad. A commit is bad
// when its duel against commit 0 shows it worse by more than the cut θ (each gated metric's
// tolerance in the duel), good when the duel shows it is not. The search assumes, as git
// bisect does, that once a commit is bad every later one is: it finds the first commit whose
// change against --good reaches θ.
namespace perfduel::bisect {

// What one duel showed about its candidate against its baseline, at the cut θ.
enum class Reading {
  good,         // every gated metric shown not worse than θ
  bad,          // some gated metric shown worse than θ
  unresolved,   // neither was shown within the duel's budget (inconclusive)
  failed,       // a benchmark run failed (crash, non-zero exit, missing metric)
  interrupted,  // SIGINT, SIGTERM or SIGHUP
};

// The readings' words, as the bisect report writes them; unresolved is "inconclusive".
constexpr util::NameTable<Reading, 5> k_reading_names{{{Reading::good, "good"},
                                                       {Reading::bad, "bad"},
                                                       {Reading::unresolved, "inconclusive"},
                                                       {Reading::failed, "failed"},
                                                       {Reading::interrupted, "interrupted"}}};

// "good", "bad", "inconclusive", "failed", "interrupted" (k_reading_names).
std::string to_string(Reading reading);

struct DuelReading {
  Reading reading = Reading::unresolved;
  std::string metric;            // the gated metric that showed it (the worst one); may be empty
  std::optional<double> change;  // of `metric`: candidate / baseline − 1
  std::optional<double> low;     // its interval
  std::optional<double> high;
  double cut = 0;                 // θ of `metric`
  bool higher_is_better = false;  // `metric`'s direction: worse is then below −θ
  int rounds = 0;
  double seconds = 0;
  std::string end;     // how the duel ended, as its report says: "decided", "round-budget", ...
  std::string reason;  // unresolved, failed: why, in words
  std::string report;  // the duel's JSON report, if any
};

struct BuildReading {
  bool ok = false;
  bool cached = false;  // built before (an earlier search), so not built now
  bool interrupted = false;
  double seconds = 0;
  std::string reason;  // why it failed, first line
  std::string log;     // where the whole story is
};

// Why a duel is made.
enum class Role {
  endpoints,     // --bad against --good: is there anything to find?
  probe,         // a commit in between against --good
  confirmation,  // the first bad commit against its parent
};

constexpr util::NameTable<Role, 3> k_role_names{
    {{Role::endpoints, "endpoints"}, {Role::probe, "probe"}, {Role::confirmation, "confirmation"}}};

// "endpoints", "probe", "confirmation" (k_role_names).
std::string to_string(Role role);

// Builds and duels commits of the chain.
class Oracle {
 public:
  virtual ~Oracle() = default;

  // Builds commit `index`; the search asks once per commit.
  virtual BuildReading build(std::size_t index) = 0;

  // Duels commit `candidate` against commit `baseline`, both built. `attempt` 0 has the
  // configured budget; 1 is the second chance of an inconclusive duel, with more rounds.
  virtual DuelReading duel(std::size_t baseline, std::size_t candidate, int attempt, Role role) = 0;
};

struct BuildRecord {
  std::size_t index = 0;
  BuildReading reading;
};

struct DuelRecord {
  std::size_t baseline = 0;
  std::size_t candidate = 0;
  Role role = Role::probe;
  int attempt = 0;
  DuelReading reading;
};

// A commit the search could not judge, and why (git bisect's `skip`).
struct Skip {
  std::size_t index = 0;
  std::string reason;
};

enum class Outcome {
  running,
  found,            // the first bad commit, confirmed by its duel against its parent
  not_confirmed,    // the first bad commit against --good, but not shown worse than its parent
  ambiguous,        // skipped commits leave several candidates for the first bad commit
  no_difference,    // --bad is shown not worse than --good by more than θ: nothing to find
  undecided,        // the endpoints' duel stayed inconclusive
  endpoint_failed,  // --good or --bad does not build, or its benchmark fails
  interrupted,
};

// The outcomes' words, as the bisect report writes them.
constexpr util::NameTable<Outcome, 8> k_outcome_names{{{Outcome::running, "running"},
                                                       {Outcome::found, "found"},
                                                       {Outcome::not_confirmed, "not-confirmed"},
                                                       {Outcome::ambiguous, "ambiguous"},
                                                       {Outcome::no_difference, "no-difference"},
                                                       {Outcome::undecided, "undecided"},
                                                       {Outcome::endpoint_failed, "endpoint-failed"},
                                                       {Outcome::interrupted, "interrupted"}}};

// "running", "found", "not-confirmed", "ambiguous", "no-difference", "undecided",
// "endpoint-failed", "interrupted" (k_outcome_names).
std::string to_string(Outcome outcome);

// The exit code of a search that ended with `outcome`: 0 found and confirmed, 1 the endpoints
// do not differ, 3 an endpoint does not build or run, 77 no single confirmed commit
// (ambiguous, not confirmed, undecided), 130 interrupted.
int bisect_exit_code(Outcome outcome);

// How much is left, for the progress line.
struct Estimate {
  std::size_t candidates = 0;          // commits that may still be the first bad one
  std::size_t duels_left = 0;          // about: halving the candidates, and the confirmation
  std::optional<double> seconds_left;  // at the mean build and duel time so far; none before any
};

struct SearchState {
  std::size_t last = 0;  // the index of --bad
  Outcome outcome = Outcome::running;
  std::size_t good = 0;  // the latest commit known good
  std::size_t bad = 0;   // the earliest commit known bad
  std::vector<BuildRecord> builds;
  std::vector<DuelRecord> duels;
  std::vector<Skip> skipped;
  std::optional<std::size_t> first_bad;
  std::vector<std::size_t> candidates;      // ambiguous: where the first bad commit may be
  std::optional<std::size_t> against_good;  // first_bad's duel against --good (index into duels)
  std::optional<std::size_t> confirmation;  // first_bad's duel against its parent (index into duels)
  std::optional<std::size_t> endpoints;     // the endpoints' deciding duel (index into duels)
  std::string failure;                      // endpoint_failed: why

  // Duels that decided a step (good or bad): each is a claim that may be wrong with the
  // duel's error probability.
  int claims() const;

  // What is left, from the bounds, the skipped commits and the times so far.
  Estimate estimate() const;

  // Whether commit `index` was skipped.
  bool is_skipped(std::size_t index) const;
};

// Told of every step, to show progress and keep the report current.
class SearchListener {
 public:
  virtual ~SearchListener() = default;
  virtual void building(const SearchState& /*state*/, std::size_t /*index*/) {}
  virtual void built(const SearchState& /*state*/) {}  // the last of state.builds is new
  virtual void dueling(const SearchState& /*state*/, const DuelRecord& /*duel*/) {}
  virtual void dueled(const SearchState& /*state*/) {}  // the last of state.duels is new
};

// The duels a search over commits 0..`last` plans for: the endpoints, about log2(last) probes,
// the confirmation, and two more for skipped commits (a skip makes an uneven split). The
// search's error budget is divided by this (Bonferroni), so it is fixed before any duel.
int planned_duels(std::size_t last);

// The commit to probe next between the bounds `good` and `bad` (exclusive): the one nearest
// their midpoint that was not skipped, the lower on a tie; nothing when none is left.
std::optional<std::size_t> next_probe(std::size_t good, std::size_t bad, const std::vector<Skip>& skipped);

// Runs the search over commits 0..`last` (last >= 1): builds both endpoints, duels them (not
// different: done, before anything else is built), bisects, and duels the first bad commit
// against its parent. An inconclusive duel gets a second attempt with more rounds; a probe
// still inconclusive, or whose build or benchmark fails, is skipped and a neighbour tried.
SearchState run_search(std::size_t last, Oracle& oracle, SearchListener& listener);

}  // namespace perfduel::bisect
