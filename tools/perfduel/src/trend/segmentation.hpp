#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "trend/jumpavg.hpp"

// The default trend grouping: a series cut into segments by penalised least squares, each
// segment a level (a constant mean) or, for a series that drifts, a line; the shape and the
// cuts with the shortest two-part description win. Why not jumpavg's model alone: it gives
// every group its own spread, so a single outlier or a slow drift is cheapest described as
// many small groups (scored on labelled real series, docs/history.md "How well it finds
// changes"). Here one noise level holds for the whole series, a cut must pay for itself in
// bits, and a drift costs a slope instead of a staircase.
namespace perfduel::trend {

// Choices of the segmentation: `change_cost` is the price of one cut in nats of
// log-likelihood per ln N, N the number of samples (2: four parameters at BIC's ½ ln N, one
// more than a cut's place, level and noise, since a real history's noise is not quite
// normal; chosen among 1.5, 2 and 2.5 on the labelled series, docs/history.md; a line's cut
// pays ½ ln N more for its slope); `min_magnitude` joins neighbours whose step is smaller
// than this relative size (0: none); `exact_steps_kept`: not when the segments fit the
// series exactly (a deterministic count, whose every step is real).
// `changes`: which changes stay once the small steps are joined (with a `min_magnitude` above 0
// and a series that is not exact): `sheriff`, only those change_evidence.hpp accepts (the
// default), or `all`.
enum class ChangeRule { sheriff, all };

struct SegmentationOptions {
  double change_cost = 2.0;
  double min_magnitude = 0.0;
  bool exact_steps_kept = false;
  ChangeRule changes = ChangeRule::sheriff;
};

// The segments of `runs` (each a run of samples that stays in one segment) as groups: each
// group's `bits` is its share of the description length, `gain_bits` what its first run's
// cut saves over joining it to the group before (the change's significance), `slope` the
// line's slope per run (0 for levels). `shape` receives the shape chosen. Pure; the caller
// has checked that every run is non-empty and finite. Changes are not yet classified.
std::vector<Group> segment_runs(std::span<const RunStats> runs, const SegmentationOptions& options,
                                SegmentShape& shape);

}  // namespace perfduel::trend
