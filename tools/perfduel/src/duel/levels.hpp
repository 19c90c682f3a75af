#pragma once

#include <cstddef>

#include "config/config.hpp"

// The levels of a duel's intervals and tests, planned before any metric is judged: how the error
// budget α is split between the width rule, the confidence sequence and the sign sequence, and
// over the gated metrics (Bonferroni for the claim "some metric regressed", none for "no change";
// Holm's family level). duel/analysis.cpp judges each metric at the levels planned here.
namespace perfduel {

// The share of the error budget α that hybrid stopping gives its confidence sequence; the
// width rule's interval gets the rest. A false alarm needs either the width rule's interval
// at its stop or the sequence at any time to exclude the truth, so the two shares add up to
// at most α (a union bound). The sequence is there to settle clear answers (a 3× slow-down,
// a change far outside the band), where a small α costs little: its radius grows with
// √ln(1/α). The width rule decides the close calls, and every point of α taken from it costs
// rounds there: (z(α(1 − s)/2) / z(α/2))² more, 2 % at s = 0.1. Measured with
// perfduel_validate (docs/validation.md): false alarms, rounds at δ = 0 … 20T.
// Half of that share goes to the sign sequence (k_sign_share), when it can run.
constexpr double k_sequence_share = 0.1;

// The share of α that hybrid stopping gives the sign sequence (stats/sign_sequence.hpp), spent on
// the regression side alone (rounds beyond the threshold, regression_signs): its job is to fail a
// clear regression before the confidence
// sequence's 20-round burn-in (a slow benchmark 30 % slower fails in 10 rounds instead of 20),
// and a regression is the only verdict that ends a duel on one metric. It is valid in finite
// samples only because each round's order is a fresh coin, so it runs with `order: random`
// only. Its share comes out of the confidence sequence's, so the width rule's level, which
// sets the rounds of every pass, is unchanged; the confidence sequence, which settles clear
// cases after its burn-in, gets the other half.
constexpr double k_sign_share = 0.05;

// Level of a gated metric's interval given the family `confidence` split over `count` metrics,
// the interval taking `share` of α.
double per_metric_confidence(double confidence, std::size_t count, double share);

// Whether hybrid stopping gives a metric of `estimator` the confidence sequence: the mean's, and
// the trimmed mean's, which takes the mean's sequence (the same log-ratios, the same batching):
// without it a clear regression of a noisy suite could end the duel only by the sign
// sequence, which needs most rounds beyond the threshold (docs/validation.md, "Suites").
bool has_confidence_sequence(Estimator estimator);

// The interval levels of one metric: `interval` for the width rule's (or, in anytime mode,
// the sequence's) interval, `sequence` for hybrid stopping's confidence sequence (0: none),
// both at the Bonferroni level that guards the claim "some metric regressed". `pass_interval`
// and `pass_sequence` are the same levels without the correction, for the claim "no change":
// equal to the others when one metric is gated.
// `signs` is the one-sided α of the sign sequence's test for a regression (0: none).
struct Levels {
  double interval = 0;
  double sequence = 0;
  double pass_interval = 0;
  double pass_sequence = 0;
  double signs = 0;
};

// What the levels of every metric follow from: the configuration's family level, the number of
// gated metrics, and which stopping rules run.
struct LevelPlan {
  double confidence = 0;        // the family level, Config::confidence
  std::size_t gated_count = 0;  // the Bonferroni family
  bool hybrid = false;          // hybrid stopping: the width rule and the confidence sequence
  bool signs = false;           // hybrid stopping with order: random: the sign sequence too
  // Holm's family α: under hybrid stopping the width rule's share (metrics a sequence settled
  // keep that decision).
  double holm_alpha = 0;
};

// The plan of `config`'s levels.
LevelPlan plan_levels(const Config& config);

// The levels of metric `spec` estimated by `estimator` under `plan`: a gated metric's at the
// Bonferroni level over the gated ones, a report-only metric's at the plain level; hybrid
// stopping splits its α between the width rule's interval and the confidence sequence
// (k_sequence_share), the sign sequence's share (k_sign_share) coming out of the sequence's, or
// out of the width rule's for an estimator without a sequence. The ratio (zeros) has neither
// sequence.
Levels levels_of(const LevelPlan& plan, const MetricSpec& spec, Estimator estimator);

}  // namespace perfduel
