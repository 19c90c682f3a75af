#pragma once

#include <cstddef>
#include <span>

namespace perfduel::stats {

// The Mann–Whitney (Wilcoxon rank-sum) comparison of two independent samples.
struct RankSumTest {
  double u = 0;  // U of `first`: the pairs (x from first, y from second) with x > y, ties counting ½
  double z = 0;  // |U − n₁n₂/2| less a continuity correction of ½, in standard deviations (≥ 0)
  double p_value = 1;  // two-sided, normal approximation, null "neither sample tends to be larger"
};

// The Mann–Whitney U test of `first` against `second` (Mann & Whitney 1947), with the normal
// approximation, the tie-corrected variance n₁n₂/12·((N + 1) − Σ(t³ − t)/(N(N − 1))) and a
// continuity correction of ½ (Hollander, Wolfe & Chicken, "Nonparametric Statistical Methods",
// 3rd ed., §4.1). Chosen over Welch's t for a step in a benchmark's history because ranks are
// untouched by the one run in a hundred that is 50 % slow, which inflates a variance until a
// real step looks like noise, and because the test needs no normality of the runs. p = 1 and
// z = 0 when either sample is empty or every value is tied (no variance: nothing to rank);
// with 12 or more runs a side, the approximation's p-value is good to a few percent of itself
// down to 1e-6 and stays on the conservative side in the far tail that a Bonferroni
// correction reaches.
RankSumTest rank_sum_test(std::span<const double> first, std::span<const double> second);

}  // namespace perfduel::stats
