#pragma once

// Duels with known outcomes for the report tests: runs made up round by round, then analysed
// by the real analysis, so the reports are tested on verdicts the product would reach.

#include <cstddef>
#include <functional>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "duel/duel.hpp"

namespace perfduel::testing {

// The value of metric number `metric` in round `round` (0-based) on `side`.
using MadeUpValue = std::function<double(std::size_t metric, int round, Side side)>;

// `rounds` measured rounds of `config`'s metrics, valued by `value_of`, and their final analysis.
inline DuelOutcome made_up_duel(const Config& config, int rounds, const MadeUpValue& value_of) {
  DuelOutcome outcome;
  outcome.metrics = config.metrics;
  for (int round = 0; round < rounds; ++round) {
    for (const Side side : {Side::baseline, Side::candidate}) {
      RunRecord run{round, side, false, {}};
      for (std::size_t m = 0; m < config.metrics.size(); ++m) {
        run.values.push_back(value_of(m, round, side));
      }
      outcome.runs.push_back(std::move(run));
    }
  }
  outcome.analysis = analyze(config, outcome.runs, Finality::final);
  outcome.elapsed_seconds = 2.5;
  return outcome;
}

// The default metrics (wall, user and system time, max RSS) of two equal programs whose max
// RSS differs by a certain +0.02 %: 100 MiB against 100.02 MiB, each side within 0.002 % of
// itself, while the times wobble by ±2 % alike on both sides.
inline double tiny_rss_change(std::size_t metric, int round, Side side) {
  const double wobble = 1 + 0.01 * ((round * 7) % 5 - 2);
  switch (metric) {
    case 0:
      return 0.010 * wobble * (side == Side::candidate ? 1 + 0.001 * (round % 2) : 1.0);
    case 1:
      return 0.009 * wobble;
    case 2:
      return 0.001;
    default: {
      const double base = 100.0 * 1024 * 1024 * (1 + 1e-5 * (round % 3));
      return side == Side::baseline ? base : base * 1.0002 * (1 + 1e-5 * (round % 2));
    }
  }
}

}  // namespace perfduel::testing
