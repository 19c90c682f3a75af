#pragma once

#include <optional>
#include <string>

#include "config/config.hpp"

// The configuration every duel of a bisection runs with, derived from the gate's own.
namespace perfduel::bisect {

// A second attempt at an inconclusive duel gets this many times the first's budget (rounds and
// seconds): the interval shrinks as 1/√n, so it ends √4 = 2 times narrower in all; a duel that
// needs more than that is skipped rather than left to run for hours.
constexpr double k_more_rounds = 3.0;

struct ProbeSettings {
  std::optional<double> cut;          // --threshold: θ for every gated metric; default each one's threshold
  double search_confidence = 0.95;    // --confidence: of the whole search's claim
  int planned_duels = 1;              // search.hpp planned_duels: the Bonferroni divisor
  std::optional<double> max_seconds;  // the first attempt's budget; empty: the configuration's
};

// The confidence each duel gets so that `planned_duels` duels together err with probability at
// most 1 − `search_confidence` (Bonferroni: a union bound, valid whatever the duels share).
double duel_confidence(double search_confidence, int planned_duels);

// `config` made into the configuration of attempt `attempt` (0, or 1 with k_more_rounds the
// budget) of a bisection's duels. Every gated metric's tolerance becomes the cut θ, so that the
// duel's regression verdict is "worse by more than θ"; the stopping rule becomes the confidence
// sequence alone (`stopping: anytime`), which settles only once the interval lies on one side
// of the band edges, never straddling θ as a narrow width-rule interval may; the confidence is
// duel_confidence(). Throws perfduel::Error when no metric is gated or a cut cannot apply.
Config probe_config(Config config, const ProbeSettings& settings, int attempt);

// What makes a commit bad under the probe configuration `probe`, against the commit named
// `reference`: "score is higher than at v1.4 by more than 5.00 %" (each gated metric, "or").
std::string cut_text(const Config& probe, const std::string& reference);

}  // namespace perfduel::bisect
