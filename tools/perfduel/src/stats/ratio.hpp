#pragma once

#include <span>
#include <vector>

#include "util/expected.hpp"

namespace perfduel::stats {

// The ratio of means of paired series, R = Σ`candidate` / Σ`baseline` (= b̄ / ā), for metrics
// that may read 0 at their resolution (CPU time a short run spends below one scheduler tick,
// counts of rare events): the mean of ln(b_i / a_i) has no value once one run reads 0, the
// ratio of the two means has as long as each side has a positive sum. It estimates the change
// of the mean, which for a quantized reading is the change of the true mean: a reading that
// counts whole ticks with a random phase (a tick lands in a run of length u with chance u/τ)
// is unbiased, E[reading] = u, so quantization widens the interval but does not shift it.
struct RatioOfMeans {
  double log_ratio = 0;  // ln(b̄ / ā)
  // The delta method's linearised values (Cochran, "Sampling Techniques", 3rd ed. 1977, ch. 6,
  // the variance of the ratio estimator, taken on the log scale):
  //   z_i = b_i / b̄ − a_i / ā,   Var(ln R̂) ≈ Var(z) / n.
  // They average exactly 0, and their means over batches of consecutive rounds are the same
  // linearisation of the batches' ratio, so Pilot batching (choose_batching) applies to them as
  // to log-ratios, and the t interval of their mean, shifted to ln R̂, is the interval of ln R.
  std::vector<double> influence;
};

// R̂ and its linearised values for `baseline` and `candidate` (round i of each belong
// together). Fails, naming the round or the side, when the series differ in length, a value is
// negative or not finite, or a side sums to 0 (every run at 0: no ratio exists).
//
// Why the delta method on the log scale, not Fieller's interval or a bootstrap: Fieller's
// interval is exact for normal means but becomes unbounded exactly when the denominator is
// uncertain, a case the zero rule (duel/zero_readings.cpp) refuses anyway; a bootstrap costs
// thousands of resamples after every round and does not carry the batching of autocorrelated
// rounds. On the log scale the interval is asymmetric like the ratio itself and cannot reach
// or cross 0, and its centre and width are in the same units as the mean log-ratio's, so
// the width rule, the tolerance band and the reports treat both alike. Its coverage on
// quantized data with zeros is measured in tests/unit/stats/test_ratio.cpp and
// docs/validation.md.
util::Expected<RatioOfMeans> ratio_of_means(std::span<const double> baseline,
                                            std::span<const double> candidate);

}  // namespace perfduel::stats
