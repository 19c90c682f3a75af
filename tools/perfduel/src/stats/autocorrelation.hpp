#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace perfduel::stats {

// Lag-1 sample autocorrelation of `x`:
//   r1 = Σ_{i<n} (x_i − x̄)(x_{i+1} − x̄) / Σ_i (x_i − x̄)²
// (Box & Jenkins, "Time Series Analysis", the standard biased estimator, which Pilot uses).
// NaN when n < 3 (no lag pair to speak of) or when every value is equal (zero variance:
// no fluctuation can be correlated).
double lag1_autocorrelation(std::span<const double> x);

// Means of consecutive, non-overlapping batches of `batch_size` values of `x`. When n is not
// a multiple of `batch_size`, the n mod q *oldest* values are left out: they are the ones
// closest to warm-up, and the newest rounds always fill the last batch. Empty when
// `batch_size` is 0 or exceeds n.
std::vector<double> batch_means(std::span<const double> x, std::size_t batch_size);

// Whether `r` (a lag-1 autocorrelation over `count` values) is *clearly* outside the band
// [−`limit`, `limit`]: beyond the band and beyond the 95 % band 1.96/√count that an
// independent series shows by chance (r1 ≈ N(−1/n, 1/n) under independence, Bartlett 1946).
bool clearly_autocorrelated(double r, std::size_t count, double limit);

// What the batching search decided.
struct Batching {
  std::size_t batch_size = 1;  // q; 1 means the values are used as they are
  std::size_t batches = 0;     // number of batches (values used = batches·q)
  double lag1 = 0;             // r1 of the raw values (NaN when undefined)
  double batch_lag1 = 0;       // r1 of the batch means at the chosen q (NaN when undefined)
  bool settled =
      true;  // false: the series is clearly autocorrelated and no q ≤ n/min_batches brings it inside the band
  std::string note;  // what was done, for the report
};

// The smallest batch size q whose batch means would have lag-1 autocorrelation ≤ `limit` if
// the series were AR(1) with coefficient `rho`; 2 for rho ≤ 0 (no batching needed).
std::size_t ar1_batch_size(double rho, double limit);

// The Pilot method (Li, Johnson, Tucek, "Pilot: a framework that understands how to do
// performance benchmarks", USENIX ATC 2016): when |r1| of `x` exceeds `limit`, group
// consecutive values into batches of size q = 2, 3, ... until the batch means' |r1| is
// within `limit`, never going below `min_batches` batches. Batch means of a stationary
// series are nearly independent once q is a few times its correlation time, so the plain
// t interval applies to them (with batches − 1 degrees of freedom). Chosen over a
// HAC/Newey-West standard error because it is what the issue asks for, it needs no kernel
// bandwidth, and the report can say in one line what happened ("q = 4, 37 batches").
//
// When the sample is too small to tell (documented rule, tuned by tests/validation):
// - n < 2·`min_batches` and |r1| > `limit`: batching cannot keep `min_batches` batches yet,
//   so `settled` is false and the caller keeps sampling until it can (or r1 falls inside
//   the band). This costs an independent series a few rounds, never validity.
// - n ≥ 2·`min_batches`: batch only when r1 is *clearly* outside the band
//   (clearly_autocorrelated: beyond the band and beyond 1.96/√n). A liberal trigger looked
//   harmless ("batching only costs degrees of freedom") but is not under the width stopping
//   rule: switching between unbatched and 20-batch intervals lets the rule stop on whichever
//   happens to be narrow, and the A/A false-alarm rate rose to 7 % on iid data.
// - If no feasible q brings the batch means inside the band, `settled` is false (keep
//   sampling): Pilot's rule taken strictly, since an interval on still-correlated batch means
//   is too narrow.
Batching choose_batching(std::span<const double> x, double limit, std::size_t min_batches);

}  // namespace perfduel::stats
