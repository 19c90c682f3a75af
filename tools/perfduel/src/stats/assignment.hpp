#pragma once

#include <optional>
#include <span>
#include <vector>

namespace perfduel::stats {

// Order duet runs the two sides at once on two CPUs, which are rarely equal (one takes the
// interrupts, one shares its core's cache with a busier neighbour). Per round the log-ratio is
//   d_r = Δ + s_r·e + ε_r,
// with s_r = +1 when the candidate had the second CPU and −1 when the baseline had it, and e
// the log-ratio of the second CPU's speed over the first's. A balanced assignment (as many
// +1 as −1) keeps e out of the mean of d, but e still adds e² to every round's variance; the
// regression of d on s takes it out of both, as in the analysis of covariance of a randomized
// experiment.
struct AssignmentEffect {
  double effect = 0;           // ê, the least-squares slope of d on s (log scale)
  double standard_error = 0;   // of ê, for independent rounds
  double mean_assignment = 0;  // s̄
  std::size_t rounds = 0;
};

// The effect of the assignment `s` (each +1 or −1) on the log-ratios `d`, by least squares;
// none with fewer than 4 rounds or when every round had the same assignment (a fixed
// assignment cannot tell the CPUs from the change).
std::optional<AssignmentEffect> assignment_effect(std::span<const double> d, std::span<const int> s);

// The per-round factors that take the assignment's effect out of the candidate's values:
// c_r = exp(−(s_r − s̄)·ê), so that the log-ratios become d_r − (s_r − s̄)·ê and keep their mean.
// When `residual_df` is true the centred log-ratios are also scaled by √((n − 1)/(n − 2)): their
// sample variance is then the regression's unbiased residual variance (one degree of freedom
// went to ê), which is what a t interval computed from them needs. The factor for round r is
// then exp(d'_r − d_r).
std::vector<double> assignment_correction(std::span<const double> d, std::span<const int> s,
                                          const AssignmentEffect& effect, bool residual_df);

}  // namespace perfduel::stats
