#pragma once

// The scripted duel of the duel loop's tests: an Executor that runs no process and times
// nothing, and the configuration and accessors those tests share.
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "duel/analysis.hpp"
#include "duel/duel.hpp"
#include "run/executor.hpp"

namespace perfduel::testing {

// A scripted Executor: no processes, no timing. Each side's wall time is drawn from its own
// seeded log-normal distribution (median `median`, log-sd `sigma`); `tweak` may then change
// any result (make it fail, print output, zero a value) by side and per-side call number.
class ScriptedExecutor : public Executor {
 public:
  struct Distribution {
    double median = 0.1;
    double sigma = 0.01;
  };
  using Tweak = std::function<void(Side side, int call, RunResult& result)>;

  ScriptedExecutor(Distribution baseline, Distribution candidate, std::uint64_t seed = 1)
      : m_baseline(baseline), m_candidate(candidate), m_rng(seed) {}

  RunResult run(const CommandSpec& command, const RunLimits& limits) override {
    const Side side = command.argv.at(0) == "baseline" ? Side::baseline : Side::candidate;
    const Distribution& spec = side == Side::baseline ? m_baseline : m_candidate;
    m_timeouts.push_back(limits.timeout_seconds);
    m_paddings[side].push_back(limits.env_padding_bytes);
    std::normal_distribution<double> noise(0.0, spec.sigma);
    RunResult result;
    result.status = RunStatus::exited;
    result.exit_code = 0;
    result.wall_seconds = spec.median * std::exp(noise(m_rng));
    result.user_seconds = 0.9 * result.wall_seconds;
    result.system_seconds = 0.01;
    result.max_rss_bytes = 1 << 20;
    const int call = m_calls[side]++;
    m_order.push_back(side);
    if (m_tweak) {
      m_tweak(side, call, result);
    }
    m_now += result.wall_seconds;
    return result;
  }

  // The scripted clock: the wall time of the runs made so far.
  double now_seconds() override { return m_now; }

  void set_tweak(Tweak tweak) { m_tweak = std::move(tweak); }
  const std::vector<Side>& order() const { return m_order; }
  const std::vector<double>& timeouts() const { return m_timeouts; }
  const std::vector<std::optional<std::size_t>>& paddings(Side side) { return m_paddings[side]; }

 private:
  Distribution m_baseline;
  Distribution m_candidate;
  std::mt19937_64 m_rng;
  Tweak m_tweak;
  std::map<Side, int> m_calls;
  std::vector<Side> m_order;
  std::vector<double> m_timeouts;
  std::map<Side, std::vector<std::optional<std::size_t>>> m_paddings;
  double m_now = 0;
};

// Two scripted sides, one warm-up round, 20 to 300 measured rounds, the default metrics.
inline Config duel_config() {
  Config config = default_config();
  config.baseline = CommandSpec{{"baseline"}, Launch::direct, {}, {}};
  config.candidate = CommandSpec{{"candidate"}, Launch::direct, {}, {}};
  config.warmup = 1;
  config.min_rounds = 20;
  config.max_rounds = 300;
  return config;
}

// run_duel with `executor` and the run-order seed `seed`.
inline DuelOutcome duel(const Config& config, ScriptedExecutor& executor, std::uint64_t seed = 42) {
  return run_duel(config, executor, seed, nullptr);
}

// The wall-time result of `analysis` (its first metric).
inline const MetricResult& wall_time(const Analysis& analysis) {
  return analysis.metrics.at(0);
}

// Each measured round's runs, by round number.
inline std::map<int, std::vector<const RunRecord*>> measured_rounds(const DuelOutcome& outcome) {
  std::map<int, std::vector<const RunRecord*>> rounds;
  for (const auto& run : outcome.runs) {
    if (!run.warmup) {
      rounds[run.round].push_back(&run);
    }
  }
  return rounds;
}

}  // namespace perfduel::testing
