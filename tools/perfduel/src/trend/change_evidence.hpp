#pragma once

#include <cstddef>
#include <span>

// Whether a change of level would survive a performance sheriff's look: significant against the
// series' own noise, lasting, and large against the run-to-run spread. Perfherder's detector
// (Mozilla treeherder, `perf/alerts.py` and `perfherder/analyze.py`: detect_changes with
// min_back_window 12, max_back_window 24, fore_window 12, t_threshold 7, and a 2 % alert
// threshold) is the model: its windows are the constants below, each test restated as a
// robust one, since a browser's page-load series has outliers that a t statistic's variance
// takes in whole. On the Firefox series whose changes sheriffs confirmed (docs/history.md "How
// well it finds changes"), the changes the segmentation found and sheriffs did not confirm were
// excursions of 11 to 26 runs that came back, steps of 1 to 3 robust deviations of a noisy
// page load, and single slow runs.
namespace perfduel::trend {

// The family-wise false-change rate of one series: the rank test's p-value is multiplied by the
// number of places a cut could have gone (Bonferroni), since the segmentation chose the place
// that looked most like a change.
inline constexpr double k_change_alpha = 0.05;
// Runs a new level must hold, and the old one must have held, before a change is called:
// Perfherder's fore_window (and min_back_window). A shorter excursion that returns is no change;
// a change in the newest runs waits for them.
inline constexpr std::size_t k_min_held_runs = 12;
// Runs either side of a cut whose spread is the noise the step is measured against: Perfherder's
// max_back_window. Near the cut, because a browser's noise changes over months.
inline constexpr std::size_t k_noise_window = 24;
// The runs either side of a cut that the rank test and the levels use at most (a long segment's
// far end says little about the step, and costs time on a long series).
inline constexpr std::size_t k_test_window = 200;
// The smallest step, in robust standard deviations of the runs near the cut. Perfherder's t ≥ 7
// over its windows (24 runs back, 12 forward) is a step of about 2.5 deviations; 1.8 was chosen
// among 1.5, 1.8, 1.9, 2.0, 2.5 and 2.86 (7/√6, t = 7 at 12 runs a side) on the shared labelled
// series (docs/history.md "How well it finds changes"): at 1.5 the Firefox series get steps
// that sheriffs did not confirm (mean F1 0.730), from 2.0 on real steps of two deviations in the
// other labelled series are lost (cover 0.656 against binseg's 0.656 and pelt's 0.658), and
// generated histories find their 2–15 % steps at any of them.
inline constexpr double k_min_step_in_noise = 1.8;

// The evidence for one change: the runs of the segment `before` it and of the segment `after`
// it, each as its level at the cut plus its residuals (a line's slope taken out). `places` is
// the number of places a cut could have gone in the series (its runs less one).
struct ChangeEvidence {
  double p_value = 1.0;      // Mann–Whitney two-sided, times `places` (at most 1)
  double step = 0.0;         // median of `after` less median of `before` (windows of k_test_window)
  double relative_step = 0;  // `step` over |median of before|; infinite when that is 0 and step is not
  double noise = 0.0;        // 1.4826 × the median absolute deviation of the k_noise_window runs a side
  double step_in_noise = 0;  // |step| / noise; infinite when noise is 0 and step is not
  std::size_t runs_before = 0;
  std::size_t held_runs = 0;  // runs of `after`: how long the new level has held
};

// The evidence of a change between `before` and `after` in a series with `places` places to cut.
// Pure. Empty spans give no evidence (p = 1, no step).
ChangeEvidence weigh_change(std::span<const double> before, std::span<const double> after,
                            std::size_t places);

// Whether `evidence` is a change a sheriff would accept: p ≤ k_change_alpha, both levels held
// k_min_held_runs, a step of k_min_step_in_noise robust deviations and of `min_magnitude`
// relative to the level before.
bool accepted(const ChangeEvidence& evidence, double min_magnitude);

}  // namespace perfduel::trend
