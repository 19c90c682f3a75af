#pragma once

// Seeded noise generators shared by the statistics unit tests. std::normal_distribution's
// algorithm is implementation-defined, but with one compiler and one seed every run draws the
// same numbers, which is all a fixed-seed test needs.

#include <cmath>
#include <random>
#include <vector>

namespace perfduel::test {

// `n` values of an AR(1) process x_t = ρ·x_{t−1} + e_t with stationary variance `sigma`²,
// started from the stationary distribution (no burn-in transient).
inline std::vector<double> ar1(std::mt19937_64& rng, std::size_t n, double rho, double sigma) {
  std::normal_distribution<double> innovation(0.0, sigma * std::sqrt(1.0 - rho * rho));
  std::normal_distribution<double> start(0.0, sigma);
  std::vector<double> x(n);
  double previous = start(rng);
  for (std::size_t i = 0; i < n; ++i) {
    previous = (i == 0) ? previous : rho * previous + innovation(rng);
    x[i] = previous;
  }
  return x;
}

// Half-width of a ±`z`-sigma band around a binomial proportion `p` over `trials` trials, used
// as the tolerance of coverage checks (z = 4 makes a false failure a ~1-in-15,000 event).
inline double binomial_tolerance(double p, int trials, double z = 4.0) {
  return z * std::sqrt(p * (1.0 - p) / trials);
}

}  // namespace perfduel::test
