#pragma once

// Seeded noise generators shared by the statistics unit tests. std::normal_distribution's
// algorithm is implementation-defined, but with one compiler and one seed every run draws the
// same numbers, which is all a fixed-seed test needs.

#include <cmath>
#include <random>
#include <utility>
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

// A CPU-time reading of a run whose true CPU time is `u` seconds, as the kernel's tick
// accounting gives it: the whole ticks of `tick` seconds that land in the run at a random phase,
// tick·⌊u/tick + U⌋ with U uniform on [0, 1). Unbiased (its mean is u), and 0 with chance
// 1 − u/tick when u < tick: what user time of a run shorter than a tick reads.
inline double tick_reading(std::mt19937_64& rng, double u, double tick = 0.004) {
  const double phase = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  return tick * std::floor(u / tick + phase);
}

// True CPU times of the quantized simulations (tick_reading with a 4 ms tick).
enum class QuantizedModel {
  exponential,  // iid exponential, mean 6 ms: 27 % of readings at 0, coefficient of variation 1
  lognormal,    // 3 ms × a per-round factor e^N(0, 0.1) shared by both runs × e^N(0, 0.25): 25 % at 0
};

// `n` paired rounds {baseline readings, candidate readings} of `model`, the candidate's true
// times × (1 + `change`), so the true ratio of the means of the readings is 1 + `change`.
inline std::pair<std::vector<double>, std::vector<double>> quantized_rounds(std::mt19937_64& rng,
                                                                            std::size_t n,
                                                                            QuantizedModel model,
                                                                            double change) {
  std::exponential_distribution<double> exponential(1.0 / 0.006);
  std::normal_distribution<double> round_noise(0.0, 0.1);
  std::normal_distribution<double> run_noise(0.0, 0.25);
  std::vector<double> a(n);
  std::vector<double> b(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (model == QuantizedModel::exponential) {
      a[i] = tick_reading(rng, exponential(rng));
      b[i] = tick_reading(rng, exponential(rng) * (1.0 + change));
    } else {
      const double shared = 0.003 * std::exp(round_noise(rng));
      a[i] = tick_reading(rng, shared * std::exp(run_noise(rng)));
      b[i] = tick_reading(rng, shared * std::exp(run_noise(rng)) * (1.0 + change));
    }
  }
  return {a, b};
}

// Half-width of a ±`z`-sigma band around a binomial proportion `p` over `trials` trials, used
// as the tolerance of coverage checks (z = 4 makes a false failure a ~1-in-15,000 event).
inline double binomial_tolerance(double p, int trials, double z = 4.0) {
  return z * std::sqrt(p * (1.0 - p) / trials);
}

}  // namespace perfduel::test
