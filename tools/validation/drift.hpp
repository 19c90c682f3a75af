// The drift tables: the ratio error of interleaving against A-then-B, and the rounds the
// paired gate needs against unpaired Welch, under the drift model.
#pragma once

#include <vector>

#include "options.hpp"

namespace perfduel::validation {

// The seed drift claim: the ratio error of the paired estimate and of A-then-B with the same
// number of runs, as the estimate of the true ratio 1 (A/A). λ = 5 ms as in the real-process
// part, so N runs per side of A-then-B take N·7.5 ms per block: the error of A-then-B depends on
// how the blocks fall on the 60 s drift period (largest at half a period, 4,000 runs), the
// paired error only on N.
struct DriftAccuracy {
  int runs = 0;
  double paired = 0;
  double sequential = 0;
};

// Prints the ratio-error table (1,000 simulations per row); its rows.
std::vector<DriftAccuracy> validate_drift_accuracy();

// Rounds to the same width under drift, paired gate against unpaired Welch, as the gate spans
// more of the drift period: with runs of λ = 10 ms a gate lasts a few seconds and sees almost
// no drift; with λ = 1 s it spans several periods. The best ratio any estimator can reach is
// σβ² / (σβ² + Var ln α): pairing removes the drift, not the run's own noise.
struct DriftRounds {
  double lambda = 0;
  double paired = 0;
  double welch = 0;
  double welch_allowance = 0;
  double variance_ratio = 0;
};

// Prints the rounds table (a quarter of `options.gates` A/A gates per row); its rows.
std::vector<DriftRounds> validate_drift_rounds(const Options& options);

}  // namespace perfduel::validation
