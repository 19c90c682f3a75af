#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace perfduel::stats {

struct WarmupDetection {
  std::size_t drop = 0;  // leading values that belong to the unstable initial phase
  double p_value = 1.0;  // two-sided test of "the dropped phase has the level of the rest"
  double shift = 0;      // mean of the dropped phase minus mean of the rest
};

// Finds a non-stable initial phase (warm-up) in the run series `x` (in run order; pass logs
// of run times so the shift is relative), by the MSER-5 truncation rule (White 1997, "An
// effective truncation heuristic for bias reduction in simulation output"; Spratt 1998 for
// the batches of 5; Hoad, Robinson & Davies 2010 rank it first of 44 warm-up methods): the
// truncation point d minimises MSER(d) = Σ_{i≥d} (x_i − x̄_d)² / (n − d)², the squared
// standard error of the mean of what remains, searched over the first half only (beyond,
// MSER is known to pick spurious late points). Chosen over a general change-point search
// (PELT, binary segmentation) because the question is narrower — "where does the start stop
// being different" — and MSER has no penalty to tune.
//
// MSER always names some d on noise alone; dropping runs on noise is harmless for validity
// but wastes rounds and would be reported as a warm-up that never was, so d is kept only
// when the dropped phase's mean differs from the rest's beyond chance at `alpha` (default
// 1 %), judged against the spread of the rest (for one dropped value: the Student prediction
// interval). Series shorter than 10 values are never cut (too few to tell).
WarmupDetection detect_warmup(std::span<const double> x, double alpha = 0.01);

}  // namespace perfduel::stats
