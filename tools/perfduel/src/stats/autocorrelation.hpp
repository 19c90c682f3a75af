#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace perfduel::stats {

// Lag-1 sample autocorrelation of `x`:
//   r1 = Σ_{i<n} (x_i − x̄)(x_{i+1} − x̄) / Σ_i (x_i − x̄)²
// (Box & Jenkins, "Time Series Analysis", the standard biased estimator, which Pilot uses).
// NaN when n < 3 (no lag pair to speak of) or when every value is equal, within a few ulps
// (zero variance: no fluctuation can be correlated; rounding residues are not fluctuation).
double lag1_autocorrelation(std::span<const double> x);

// Means of consecutive, non-overlapping batches of `batch_size` values of `x`, counted from
// the first value. When n is not a multiple of `batch_size`, the n mod q *newest* values wait
// until their batch is full: the batches are then the same at every look of the duel (a
// partition that moved with each new round would give the stopping rule a fresh interval to
// stop on every round). Empty when `batch_size` is 0 or exceeds n.
std::vector<double> batch_means(std::span<const double> x, std::size_t batch_size);

// Whether `r` (a lag-1 autocorrelation over `count` values) is *clearly* outside the band
// [−`limit`, `limit`]: beyond the band and beyond the 95 % band 1.96/√count that an
// independent series shows by chance (r1 ≈ N(−1/n, 1/n) under independence, Bartlett 1946).
bool clearly_autocorrelated(double r, std::size_t count, double limit);

// The upper 95 % bound of a lag-1 autocorrelation `r` over `count` values: r + 1.645/√count.
double lag1_upper_bound(double r, std::size_t count);
// Whether that bound, `upper`, shows a series independent enough to use as it is (at most
// 0.25): choose_batching's test.
bool independence_shown(double upper);

// What the batching search decided.
struct Batching {
  std::size_t batch_size = 1;  // q; 1 means the values are used as they are
  std::size_t batches = 0;     // number of batches (values used = batches·q)
  double lag1 = 0;             // r1 of the raw values (NaN when undefined)
  double batch_lag1 = 0;       // r1 of the batch means at the chosen q (NaN when undefined)
  bool settled = true;         // false: the width rule must not stop on this interval; keep sampling
  bool provisional = false;  // with !settled: the widened unbatched interval may still decide a clear change
  // Factor on the standard error: for batches, the correlation Pilot's band leaves in their means,
  // √((1 + r)/(1 − r)), r = ar1_batch_correlation(r1, q); unbatched, the AR(1) factor at the
  // upper bound of r1 while independence is not shown; else 1.
  double residual_inflation = 1;
  std::string note;  // what was done, for the report
};

// Lag-1 autocorrelation of non-overlapping means of `batch_size` consecutive values of a
// stationary AR(1) series with coefficient `rho` (0 ≤ ρ < 1), from its covariances ρ^k:
//   r(q) = ρ(1 − ρ^q)² / (q(1 − ρ²) − 2ρ(1 − ρ^q)).
double ar1_batch_correlation(double rho, std::size_t batch_size);

// √((1 + r)/(1 − r)): how much wider the interval of a mean must be when its values are AR(1)
// with lag-1 correlation `r` (0 ≤ r < 1) than when they are independent.
double ar1_width_factor(double r);

// The smallest batch size q whose batch means would have lag-1 autocorrelation ≤ `limit` if
// the series were AR(1) with coefficient `rho`; 2 for rho ≤ 0 (no batching needed).
std::size_t ar1_batch_size(double rho, double limit);

// The Pilot method (Li, Johnson, Tucek, "Pilot: a framework that understands how to do
// performance benchmarks", USENIX ATC 2016): when |r1| of `x` exceeds `limit`, group
// consecutive values into batches of size q = 2, 3, ... until the batch means' |r1| is
// within `limit`, never going below `min_batches` batches. Batch means of a stationary
// series are nearly independent once q is a few times its correlation time, so the plain
// t interval applies to them (with batches − 1 degrees of freedom). Chosen over a
// HAC/Newey-West standard error because it is the method the design names, it needs no kernel
// bandwidth, and the report can say in one line what happened ("q = 4, 37 batches").
//
// A `limit` of 1 turns the check off (the values are taken as independent).
//
// When the sample is too small to tell (documented rule, measured in docs/validation.md):
// - "No autocorrelation" needs evidence, not just an r1 inside the band: the one-sided 95 %
//   upper bound r1 + 1.645/√n must be ≤ k_independence_bound (0.25). A short series of an
//   AR(1) process with ρ = 0.5 shows r1 ≈ 0.35 ± 0.2; accepting it as independent whenever r1
//   dipped inside the band let the duel stop on an interval √3 too narrow (14 % A/A false
//   alarms). An independent series passes after ~45 rounds; until then, and whenever r1 is
//   neither clearly correlated nor clearly not, the plain interval is widened by
//   √((1 + u)/(1 − u)), u the upper bound (at most 0.9), the AR(1) variance factor at that
//   bound, in `residual_inflation`.
// - Batch only when r1 is *clearly* outside the band (clearly_autocorrelated: beyond the band
//   and beyond 1.96/√n). A liberal trigger looked harmless ("batching only costs degrees of
//   freedom") but is not under the width stopping rule: switching between unbatched and
//   20-batch intervals lets the rule stop on whichever happens to be narrow (7 % A/A false
//   alarms on iid data).
// - The batch size starts at the one an AR(1) process at the upper 95 % bound of r1 needs and
//   grows until the batch means' |r1| is inside the band, keeping ≥ `min_batches` batches. The
//   correlation the band still allows (up to 0.1) is corrected through `residual_inflation`.
// - When even the largest feasible q (n/`min_batches`) leaves the batch means' r1 outside the
//   band (dependence longer than the batches: a slowly drifting ratio), the interval uses those
//   batches, widened by √((1 + r)/(1 − r)) with their own r1 (capped at 0.9), and is settled:
//   waiting for the band could last forever, since more rounds only lengthen the batches.
// - While no feasible q can exist yet (too few rounds), `settled` is false and the result is
//   `provisional`: the unbatched interval widened by the AR(1) factor √((1 + ρ)/(1 − ρ)) at
//   the upper bound of ρ (at most 0.95). The width rule does not stop on it; anytime mode may
//   decide a clear change with it, and at the end of the budget it may decide one.
Batching choose_batching(std::span<const double> x, double limit, std::size_t min_batches);

}  // namespace perfduel::stats
