#pragma once

// Seeded benchmark histories with known steps, for the trend detector's statistical claims (its
// false changes on identical programs, its detection of real steps) and for the figures in
// docs/history.md (tools/bench/trend_generated.cpp). Each run is what `perfduel record` keeps of
// a gate's candidate: one value near the program's level.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace perfduel::test {

// The noise of a history: each run is the level × e^N(0, `noise`); a share `outliers` of runs is
// `outlier_factor` slow (a run that a busy machine disturbed); a share `excursions` of runs
// starts `excursion_runs` runs that are `excursion_factor` slow (a noisy neighbour for a while).
struct HistoryNoise {
  double noise = 0.005;
  double outliers = 0.01;
  double outlier_factor = 1.5;
  double excursions = 0.005;
  std::size_t excursion_runs = 3;
  double excursion_factor = 1.1;
};

// A history and the runs where its level steps (the first run of each new level).
struct BenchmarkHistory {
  std::vector<double> values;
  std::vector<std::size_t> steps;
};

// `runs` runs of a level of 100 with `steps` steps, each of a relative size drawn uniformly from
// [`smallest`, `largest`], up or down at random, at places at least `spacing` runs apart and
// from either end (A/A when `steps` is 0: identical programs), with `noise`.
inline BenchmarkHistory benchmark_history(std::mt19937_64& random, std::size_t runs, std::size_t steps,
                                          const HistoryNoise& noise = {}, double smallest = 0.02,
                                          double largest = 0.15, std::size_t spacing = 30) {
  BenchmarkHistory h;
  std::uniform_int_distribution<std::size_t> place(spacing, runs - spacing);
  while (h.steps.size() < steps) {
    h.steps.clear();
    for (std::size_t i = 0; i < steps; ++i) {
      h.steps.push_back(place(random));
    }
    std::sort(h.steps.begin(), h.steps.end());
    for (std::size_t i = 1; i < h.steps.size(); ++i) {
      if (h.steps[i] - h.steps[i - 1] < spacing) {
        h.steps.clear();
        break;
      }
    }
  }
  std::uniform_real_distribution<double> size(smallest, largest);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, noise.noise);
  double level = 100.0;
  std::size_t next_step = 0;
  std::size_t excursion_left = 0;
  for (std::size_t i = 0; i < runs; ++i) {
    if (next_step < h.steps.size() && h.steps[next_step] == i) {
      level *= 1.0 + (unit(random) < 0.5 ? -1.0 : 1.0) * size(random);
      ++next_step;
    }
    double value = level * std::exp(normal(random));
    if (excursion_left == 0 && unit(random) < noise.excursions) {
      excursion_left = noise.excursion_runs;
    }
    if (excursion_left > 0) {
      value *= noise.excursion_factor;
      --excursion_left;
    } else if (unit(random) < noise.outliers) {
      value *= noise.outlier_factor;
    }
    h.values.push_back(value);
  }
  return h;
}

}  // namespace perfduel::test
