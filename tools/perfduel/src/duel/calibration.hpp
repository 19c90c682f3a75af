#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "stats/noise.hpp"

// Thresholds that fit each metric's noise: from runs of identical programs (an A/A duel, or any
// duel's rounds), the noise of every gated metric, the rounds its configured threshold needs, and
// the narrowest threshold the budget can settle (stats/noise.hpp). `perfduel calibrate` writes
// these; a duel notes early when its budget cannot settle a threshold.
namespace perfduel {

// What a metric of `config` estimated by `estimator` settles at: its width rule's level and its
// uncorrected pass level (duel/levels.hpp: Bonferroni over the gated metrics, hybrid stopping's
// share), and the minimum rounds.
stats::SettleLevels settle_levels(const Config& config, const MetricSpec& spec, Estimator estimator);

// Calibration aims a threshold at this share of the budget's rounds: a pass is then expected well
// within the budget, and a noisier day than the calibration's still fits.
constexpr double k_calibration_budget_share = 0.5;

// One gated metric: its noise, what its configured threshold needs, and what calibration proposes.
struct MetricCalibration {
  MetricSpec spec;  // as configured (a benchmark pattern's expanded metric)
  stats::RoundNoise noise;
  double rounds_configured = 0;  // rounds_to_settle at the configured threshold and tolerance
  double threshold = 0;          // proposed: the configured one, or looser when it cannot fit
  double tolerance = 0;
  double rounds_proposed = 0;  // rounds_to_settle at the proposed threshold and tolerance
  bool loosened = false;       // the configured threshold needs more than the target rounds
  // A count (valgrind, counter) whose rounds all agree within a hundredth of its threshold: it
  // settles in k_deterministic_min_rounds whatever its threshold, so there is nothing to fit.
  bool counted = false;
  // The configuration has an entry of its own for this metric (not a pattern's expansion), so
  // a fragment that replaces an earlier one writes it again, even when calibration keeps it.
  bool own_entry = false;
};

// The calibration of one metric with `noise` at `levels`, aiming at `target_rounds`: the
// configured threshold when it settles within them; else the narrowest that does (threshold_for_
// rounds, the tolerance keeping its configured share of the threshold), rounded up to a readable
// value (readable_fraction), never below the configured one, with the tolerance never below the
// configured one either. Calibration only loosens what the budget cannot settle.
MetricCalibration calibrate_metric(const MetricSpec& spec, const stats::RoundNoise& noise,
                                   const stats::SettleLevels& levels, double target_rounds);

struct Calibration {
  std::vector<MetricCalibration> metrics;  // the gated metrics, in configuration order
  std::size_t rounds = 0;                  // measured rounds the noise came from
  double seconds_per_round = 0;            // 0: unknown
  double budget_rounds = 0;                // budget_rounds of the configuration
  double target_rounds = 0;                // the share of it a proposed threshold aims at
};

// Calibrates every gated metric of `config` (benchmark patterns expanded) from `runs`, runs of
// identical programs on both sides, which took `seconds_per_round` each (0: unknown).
Calibration calibrate(const Config& config, std::span<const RunRecord> runs, double seconds_per_round);

// As above, from each metric's series of log-ratios of one round (`ratios[m]` for
// config.metrics[m]; measured_log_ratios), however they were obtained.
Calibration calibrate_ratios(const Config& config, const std::vector<std::vector<double>>& ratios,
                             double seconds_per_round);

// Stand-ins for one round's log-ratios from one side's samples of repeated duels (the history
// keeps the candidate's): within each duel, the differences of the logs of its samples taken in
// disjoint pairs (2nd - 1st, 4th - 3rd, ...). Each has the variance of a round of two
// independent sides with that noise, and the pairs are independent of one another; noise the
// two sides of a round share (drift) is counted as noise, so the estimate errs on the high side.
// Samples that are not positive are skipped.
std::vector<double> paired_sample_differences(std::span<const std::vector<double>> duels);

// The duel's early note: the gated metrics of `analysis` still open whose noise so far (`runs`)
// needs more rounds at their configured thresholds than `budget` (rounds), each with what it
// needs and the threshold calibration would propose; empty when every one fits. Made once, when
// the metrics have their minimum rounds.
std::optional<Note> budget_note(const Config& config, const Analysis& analysis,
                                std::span<const RunRecord> runs, double budget);

}  // namespace perfduel
