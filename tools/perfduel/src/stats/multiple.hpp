#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "stats/paired.hpp"

namespace perfduel::stats {

// Per-test confidence 1 − (1 − `confidence`)/`tests` (Bonferroni). Chosen for the reported
// intervals because it needs no assumption about how the metrics depend on each other (wall
// time and CPU time of the same run are strongly correlated) and each interval stays a plain
// interval. `tests` = 0 is treated as 1.
double bonferroni_confidence(double confidence, std::size_t tests);

// Holm's step-down procedure (Holm 1979, "A simple sequentially rejective multiple test
// procedure"): sort the p-values ascending, reject p_(i) while p_(i) ≤ α/(m − i + 1), stop at
// the first that fails. Controls the family-wise error rate at `alpha` under any dependence,
// like Bonferroni, and rejects everything Bonferroni rejects and sometimes more (uniformly
// more powerful), which is why it is offered as the decision rule. Ties in `p_values` are
// ordered by position so the result is deterministic. NaN p-values are never rejected.
std::vector<bool> holm_rejections(std::span<const double> p_values, double alpha);

// The significance level Holm's procedure tests each hypothesis of `p_values` at, α/(m − i + 1)
// for the hypothesis of rank i, given family level `alpha`. A hypothesis after the first
// non-rejection is reported at its own rank's level too (it was not rejected there either).
std::vector<double> holm_levels(std::span<const double> p_values, double alpha);

// Holm-adjusted p-values (Wright 1992): max over j ≤ i of (m − j + 1)·p_(j), capped at 1;
// hypothesis i is rejected by Holm at α exactly when its adjusted p-value ≤ α.
std::vector<double> holm_adjusted(std::span<const double> p_values);

// Two-sided p-value of the null "the true value lies inside `band`" for an estimate `center`
// with `standard_error` and Student t with `degrees_of_freedom`: twice the one-sided p-value
// against the nearer band edge, capped at 1. It is the test the t interval inverts: the
// interval at confidence c lies entirely outside the band exactly when p < 1 − c. With a zero
// standard error the answer is 0 outside the band and 1 inside (no noise, no doubt).
double t_test_p_value(double center, double standard_error, double degrees_of_freedom, Interval band);

}  // namespace perfduel::stats
