#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "stats/paired.hpp"

namespace perfduel::stats {

// 1-based ranks of the order statistics x_(lower) ≤ median ≤ x_(upper) that bound the
// sign-test interval, and the interval's exact coverage.
struct OrderStatisticRanks {
  std::size_t lower = 0;
  std::size_t upper = 0;
  double coverage = 0;  // 1 − 2·P(Bin(n, ½) ≤ lower − 1) ≥ the confidence asked for
};

// The distribution-free interval for a median (Hollander, Wolfe & Chicken, "Nonparametric
// Statistical Methods", §3.6; Conover, "Practical Nonparametric Statistics", §3.2): with `n`
// independent values, [x_(k), x_(n−k+1)] covers the median with probability
// 1 − 2·P(Bin(n, ½) ≤ k − 1), whatever the distribution. k is the largest rank that keeps the
// coverage ≥ `confidence` (Boost.Math binomial CDF). Empty when even [x_(1), x_(n)] is not
// enough (n < 6 at 95 %: 1 − 2/2⁶ = 96.9 %, but 1 − 2/2⁵ = 93.8 %).
std::optional<OrderStatisticRanks> sign_test_ranks(std::size_t n, double confidence);

struct MedianInterval {
  double median = 0;
  Interval ci;
  std::size_t n = 0;
  double coverage = 0;  // exact coverage of the chosen order statistics
};

// Median of `x` with the sign-test interval at `confidence`. Chosen over a bootstrap of the
// median because it is exact for any continuous distribution (heavy tails and spikes
// included) and needs no resampling. Ties only make it conservative. Empty when n is too
// small for `confidence` (see sign_test_ranks).
std::optional<MedianInterval> sign_test_interval(std::span<const double> x, double confidence);

// Two-sided sign-test p-value of the null "the median lies inside `band`": twice the
// binomial tail of the count beyond the nearer band edge, values equal to the edge dropped
// (the usual convention for zeros, Conover §3.4), capped at 1. It inverts sign_test_interval:
// the interval lies outside the band exactly when the p-value is below 1 − coverage. 1 when
// the sample median is inside the band or no value is off the edge.
double sign_test_p_value(std::span<const double> x, Interval band);

// The share of values the `trimmed` estimator drops at each end: 20 %, the usual choice for
// a trimmed mean's confidence interval (Wilcox, "Introduction to Robust Estimation and
// Hypothesis Testing", 4th ed., §3.2 and §4.4), which keeps the efficiency near the mean's
// for normal data (about 94 %) and far above it under heavy tails.
constexpr double k_trim = 0.2;

struct TrimmedInterval {
  double center = 0;  // the trimmed mean
  Interval ci;
  std::size_t n = 0;
  std::size_t kept = 0;           // h = n − 2g values averaged (g = ⌊trim·n⌋ dropped at each end)
  double standard_error = 0;      // √((n − 1)·s_w² / (h·(h − 1))), s_w² the winsorized variance
  double degrees_of_freedom = 0;  // h − 1
};

// The `trim` trimmed mean of `x` with the Tukey–McLaughlin (Yuen) interval: center ± t(h − 1,
// 1 − (1 − `confidence`)/2)·SE, where the g = ⌊trim·n⌋ smallest and largest values are dropped
// for the mean and replaced by their nearest kept neighbour for the winsorized variance s_w²
// (Tukey & McLaughlin 1963; Yuen 1974). Valid for symmetric and moderately skewed
// distributions with heavy tails, where the t interval of the mean is wide because of a few
// outliers. Empty when fewer than 2 values would be kept.
std::optional<TrimmedInterval> trimmed_mean_interval(std::span<const double> x, double trim,
                                                     double confidence);

// Settings of the minimum-based (tim) estimator.
struct MinOptions {
  std::size_t best_of = 3;  // k: runs kept per side and batch
  double confidence = 0.95;
  double stability_limit = 0.02;    // largest allowed relative gap between the halves
  Interval null_band;               // log-ratio band of "no change" for the p-value
  std::size_t min_batches = 20;     // no interval before this many batches
  double decision_sigma_level = 0;  // as EstimatorOptions::decision_sigma_level
};

enum class MinStatus { ok, insufficient_data, unstable };

struct MinEstimate {
  MinStatus status = MinStatus::insufficient_data;
  double center = 0;           // mean over batches of ln(best-k mean B / best-k mean A)
  Interval ci;                 // t interval over the batch log-ratios
  std::size_t batch_size = 0;  // rounds per batch (2k)
  std::size_t batches = 0;
  double halves_gap = 0;  // relative gap between the estimates of the two halves
  double p_value = 1.0;
  double sequential_allowance = 1.0;  // factor applied to the standard error (decision_sigma_level)
  std::string note;
};

// The tim method (the min-of-batches estimator of the `tim` benchmarking tool; Chen &
// Revels, "Robust benchmarking in noisy environments", 2016, argue the same way: interference
// only ever adds time, so the fastest runs are the least disturbed). Consecutive rounds are
// cut into batches of q = 2k rounds (k = `options.best_of`; the n mod q newest wait for their batch); in
// each batch, each side's estimate is the mean of its k fastest runs, i.e. its better half,
// which drops the upper tail where interference lands yet still averages k values. The batch
// log-ratio r_j = ln(B_j / A_j) pairs the sides inside the same stretch of time, so drift
// cancels; the error comes from the spread of r_j across batches (t interval, b − 1 df).
//
// Stability check: tim refuses to judge when the estimate from the first half of the batches
// and from the second half disagree by more than a set distance. In a paired duel, drift that
// slows both sides cancels in r_j, so the halves of the *ratio* are compared (comparing each
// side's level would refuse every duel on a drifting machine). Because a bare distance on a
// noisy estimate would refuse a share of perfectly stable duels by chance, the gap must also
// exceed its noise (Welch two-sample t-test at 1 %); with fewer than 2 batches per half the
// check cannot run. Status insufficient_data with fewer than `options.min_batches` batches:
// the interval has only b − 1 degrees of freedom, and the width stopping rule, stopping on the
// first narrow one, drove the A/A false-alarm rate to 21 % with ~10 batches (tools/validation).
MinEstimate min_estimate(std::span<const double> baseline, std::span<const double> candidate,
                         const MinOptions& options);

}  // namespace perfduel::stats
