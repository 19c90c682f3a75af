#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "stats/changepoint.hpp"

using namespace perfduel::stats;

TEST_CASE("warm-up detection finds a slow start", "[stats]") {
  std::mt19937_64 rng(8);
  std::normal_distribution<double> noise(0.0, 0.02);
  std::vector<double> x;
  for (int i = 0; i < 100; ++i) {
    x.push_back((i < 20 ? 0.3 : 0.0) + noise(rng));
  }
  const WarmupDetection w = detect_warmup(x);
  CHECK(w.drop == 20);
  CHECK(w.shift == Approx(0.3).epsilon(0.1));
  CHECK(w.p_value < 1e-6);
}

TEST_CASE("warm-up detection finds a single cold first run", "[stats]") {
  std::mt19937_64 rng(9);
  std::normal_distribution<double> noise(0.0, 0.02);
  std::vector<double> x{0.5};
  for (int i = 0; i < 30; ++i) {
    x.push_back(noise(rng));
  }
  // MSER drops the cold run; it may take a few ordinary neighbours with it, since it only
  // minimises the standard error of what remains.
  const WarmupDetection w = detect_warmup(x);
  CHECK(w.drop >= 1);
  CHECK(w.drop <= 4);
}

TEST_CASE("warm-up detection leaves stationary series alone", "[stats]") {
  std::mt19937_64 rng(10);
  std::normal_distribution<double> noise(0.0, 1.0);
  constexpr int k_series = 500;
  int cut = 0;
  for (int s = 0; s < k_series; ++s) {
    std::vector<double> x(60);
    for (auto& v : x) {
      v = noise(rng);
    }
    cut += detect_warmup(x).drop > 0 ? 1 : 0;
  }
  CHECK(cut / double{k_series} < 0.05);
}

TEST_CASE("warm-up detection degenerate cases", "[stats]") {
  CHECK(detect_warmup(std::vector<double>{5, 1, 1, 1, 1, 1, 1, 1, 1}).drop == 0);  // n < 10
  CHECK(detect_warmup(std::vector<double>(50, 1.0)).drop == 0);                    // constant
  CHECK(detect_warmup(std::vector<double>{}).drop == 0);
}
