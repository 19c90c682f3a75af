#pragma once

#include <cstddef>
#include <span>

#include "stats/descriptive.hpp"
#include "stats/estimator.hpp"

// How noisy one metric's rounds are, and what that noise lets the duel settle: the rounds a
// threshold needs, the threshold a number of rounds can settle. `perfduel calibrate` and the
// duel's early budget note project from here (duel/calibration.hpp).
namespace perfduel::stats {

// The noise of one metric's paired log-ratios, as the duel's interval sees it.
struct RoundNoise {
  // σ of one round's log-ratio as it enters the estimator's standard error (SE·√n): for `trimmed`
  // Yuen's, for `median` the mean's ×√(π/2); with clear autocorrelation the long-run σ of the
  // batch means (×√q) the duel would use. NaN with fewer than 3 rounds.
  double sigma = k_nan;
  double lag1 = k_nan;                 // lag-1 autocorrelation of the log-ratios
  std::size_t batch_size = 1;          // rounds per batch the duel's interval would use
  bool correlated = false;             // clearly autocorrelated: `sigma` is the long-run one
  double autocorrelation_limit = 0.1;  // the duel's setting, for independence_widening
  std::size_t rounds = 0;
};

// The noise of log-ratios `d` for `estimator`, with the duel's batching rule (choose_batching at
// `autocorrelation_limit`, at least `min_batches` batches). Chosen over a plain standard
// deviation because the projection must be of the interval the duel computes: a trimmed mean
// ignores a hiccup that a plain σ would count in full, and autocorrelated rounds carry less
// information than their number says.
RoundNoise round_noise(std::span<const double> d, Estimator estimator, double autocorrelation_limit,
                       std::size_t min_batches);

// The factor by which the duel widens an unbatched interval of `rounds` rounds whose lag-1
// autocorrelation is `lag1`, until independence is shown (choose_batching: the AR(1) factor at
// the upper 95 % bound of r1 while that bound is above 0.25): about ×1.4 at 30 rounds, 1 from
// about 45 rounds for an independent series. 1 when `lag1` is NaN or the check is off
// (`limit` ≥ 1).
double independence_widening(double lag1, std::size_t rounds, double limit);

// What a no-change metric's settling depends on besides its noise.
struct SettleLevels {
  double width_level = 0.95;  // the width rule's interval level (duel/levels.hpp Levels::interval)
  // The uncorrected level at which an interval inside ±tolerance settles no change
  // (Levels::pass_interval); equal to `width_level` when that path does not exist (one gated metric).
  double pass_level = 0.95;
  int min_rounds = 20;
};

// The duel's width-rule width after `rounds` rounds of `noise` (ratio scale, the full width
// hi / lo − 1 the duel compares with the threshold, σ at its stopping bound):
//   expm1(2·t(1 − α/2, k − 1)·σ/√n·f₉₅(k)·w(n)), k = n / q units, f₉₅ = sigma_upper_bound_factor,
//   w = independence_widening.
double projected_width(const RoundNoise& noise, std::size_t rounds, double level);

// The half-width plus the median |estimate| of a no-change metric after `rounds` rounds at
// `level` (log scale): (t·f₇₅·w + 0.674)·σ/√n. Its interval lies inside ±τ, at the median, once
// this is at most ln(1 + τ).
double projected_reach(const RoundNoise& noise, std::size_t rounds, double level);

// The projections stop here: beyond, a metric is "never" within any budget.
constexpr double k_max_projected_rounds = 1e6;

// The rounds after which a metric with `noise` and no true change settles at the median, at
// `threshold` and `tolerance`: the fewer of the width rule's (projected_width ≤ threshold) and,
// when `levels` has an uncorrected pass level, the band rule's (projected_reach ≤ ln(1 +
// tolerance)); at least `min_rounds`. The duel's confidence and sign sequences can only settle it
// sooner. `min_rounds` for σ = 0; infinity beyond k_max_projected_rounds; NaN for a NaN σ.
double rounds_to_settle(const RoundNoise& noise, double threshold, double tolerance,
                        const SettleLevels& levels);

// The narrowest threshold that settles `noise` within `rounds` rounds (as rounds_to_settle), the
// tolerance being `tolerance_share` of it: the width rule's projected width, or the band rule's
// expm1(projected_reach) / tolerance_share when that is narrower. 0 for σ = 0.
double threshold_for_rounds(const RoundNoise& noise, double rounds, double tolerance_share,
                            const SettleLevels& levels);

// `fraction` rounded up to a value a person would write: steps of 0.1 % below 1 %, 0.5 % below
// 10 %, 1 % below 30 %, 5 % below 100 %, 10 % beyond (7.23 % → 7.5 %, 12.2 % → 13 %).
double readable_fraction(double fraction);

}  // namespace perfduel::stats
