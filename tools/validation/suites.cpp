#include "suites.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <random>

#include <fmt/format.h>

#include "gates.hpp"

namespace perfduel::validation {

namespace {

// What a real Google Benchmark suite showed (13 benchmarks, ~2 s a run): per-round log-ratios
// with σ 0.06–0.24 and heavy tails (a 10 %-trimmed σ about half), lag-1 autocorrelation. The
// model: benchmark k's value in a run is exp(a + e + s), with a its own AR(1) of ρ_k over that
// side's runs, e normal, and in 10 % of runs a slow-down s = |N(0, 5σ)|; the body σ of the
// log-ratio σ_k runs from 0.05 to 0.12 over the 13, ρ_k from 0.2 to 0.4. Gated as users gate a
// suite: threshold 5 %, tolerance 3 %, hybrid stopping, the driver's defaults otherwise.
constexpr int k_suite_metrics = 13;
constexpr int k_suite_max_rounds = 250;

// `count` suites of case `c`, seeded by `index`.
SuiteTally simulate_suites(const SuiteCase& c, long count, int index) {
  Config config = default_config();
  config.metrics.clear();
  config.max_rounds = k_suite_max_rounds;
  config.uncorrected_pass = c.uncorrected_pass;
  for (int k = 0; k < k_suite_metrics; ++k) {
    MetricSpec spec;
    spec.name = fmt::format("bench/BM_{}", k);
    spec.source = MetricSource::google_benchmark;
    spec.field = "real_time";
    spec.gating = Gating::gated;
    spec.threshold = 0.05;
    spec.tolerance = 0.03;
    spec.estimator = c.estimator;
    config.metrics.push_back(spec);
  }
  std::vector<double> sigma;
  std::vector<double> rho;
  for (int k = 0; k < k_suite_metrics; ++k) {
    sigma.push_back(c.spread * (0.05 + 0.07 * k / (k_suite_metrics - 1)));
    rho.push_back(0.2 + 0.2 * ((5 * k) % k_suite_metrics) / (k_suite_metrics - 1.0));
  }
  std::mutex mutex;
  SuiteTally total;
  run_gates(count, [&](long i) {
    Rng rng(gate_seed(300, index, i));
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    // Per side and benchmark: the AR(1) state; each side's run noise has σ_k/√2 so that the
    // log-ratio's body has σ_k.
    std::vector<std::array<double, 2>> state(k_suite_metrics, {0.0, 0.0});
    const auto run = [&](int round, Side side, bool warmup) {
      RunRecord record{round, side, warmup, {}};
      const int s = side == Side::baseline ? 0 : 1;
      for (int k = 0; k < k_suite_metrics; ++k) {
        const double side_sigma = sigma[k] / std::sqrt(2.0);
        const double r = rho[k];
        // Half of each side's variance is its AR(1) state, half fresh noise.
        state[k][s] = r * state[k][s] + normal(rng) * side_sigma * std::sqrt((1 - r * r) / 2);
        double log_value = state[k][s] + normal(rng) * side_sigma / std::sqrt(2.0);
        if (uniform(rng) < 0.1) {
          log_value += std::abs(normal(rng)) * 5 * side_sigma;
        }
        if (k == 0 && side == Side::candidate) {
          log_value += std::log1p(c.delta);
        }
        record.values.push_back(1e-3 * std::exp(log_value));
      }
      return record;
    };
    std::vector<RunRecord> runs;
    for (int round = 0; round <= config.max_rounds; ++round) {
      const bool warmup = round < config.warmup;
      const bool candidate_first = uniform(rng) < 0.5;
      runs.push_back(run(round, candidate_first ? Side::candidate : Side::baseline, warmup));
      runs.push_back(run(round, candidate_first ? Side::baseline : Side::candidate, warmup));
      if (!warmup && analyze(config, runs, Finality::ongoing).can_stop) {
        break;
      }
    }
    const Analysis final_analysis = analyze(config, runs, Finality::final);
    const bool pass =
        final_analysis.verdict == Verdict::no_change || final_analysis.verdict == Verdict::improvement;
    bool alarm = false;
    for (const auto& m : final_analysis.metrics) {
      alarm |= m.verdict == Verdict::regression || m.verdict == Verdict::improvement;
    }
    const std::lock_guard lock(mutex);
    ++total.gates;
    total.passes += pass ? 1 : 0;
    total.alarms += alarm ? 1 : 0;
    total.benchmark0_passed += final_analysis.metrics[0].verdict == Verdict::no_change ? 1 : 0;
    total.within_60 += pass && final_analysis.measured_rounds <= 60 ? 1 : 0;
    total.rounds.push_back(final_analysis.measured_rounds);
    return GateResult{};
  });
  return total;
}

}  // namespace

std::vector<SuiteRow> validate_suites(const Options& options) {
  const long gates = std::max(options.detection_gates / 2, 1L);
  fmt::print(
      "\n## Suites: 13 gated benchmarks\n\nOne binary's 13 benchmarks gated as one entry (threshold 5 %, "
      "tolerance 3 %, hybrid stopping, defaults otherwise, budget {} rounds); per-round log-ratio body σ "
      "0.05–0.12, 10 % of runs slowed by |N(0, 5σ)|, each side's AR(1) ρ 0.2–0.4; {} gates per case.\n\n"
      "| case | pass | pass within 60 rounds | any alarm (family-wise) | benchmark 0 passed | median / 95th "
      "percentile rounds |\n|---|---|---|---|---|---|\n",
      k_suite_max_rounds, gates);
  const std::vector<SuiteCase> cases{
      {"A/A, body σ 0.025–0.06", 0.0, 0.5},
      {"A/A, body σ 0.025–0.06, Bonferroni for no change too (before)", 0.0, 0.5, Estimator::mean, false},
      {"A/A", 0.0, 1.0},
      {"A/A, Bonferroni for no change too (before)", 0.0, 1.0, Estimator::mean, false},
      {"benchmark 0 at +4.5 % (1.5 × tolerance)", 0.045, 1.0},
      {"benchmark 0 at +4.5 %, body σ 0.025–0.06", 0.045, 0.5},
      {"benchmark 0 at +10 %", 0.10, 1.0},
      // Heavy tails: the robust estimators against the mean's t interval, on the same machines.
      {"A/A, body σ 0.025–0.06, estimator trimmed", 0.0, 0.5, Estimator::trimmed},
      {"A/A, estimator trimmed", 0.0, 1.0, Estimator::trimmed},
      {"benchmark 0 at +4.5 %, estimator trimmed", 0.045, 1.0, Estimator::trimmed},
      {"benchmark 0 at +4.5 %, body σ 0.025–0.06, estimator trimmed", 0.045, 0.5, Estimator::trimmed},
      {"benchmark 0 at +10 %, estimator trimmed", 0.10, 1.0, Estimator::trimmed},
      {"A/A, body σ 0.025–0.06, estimator median", 0.0, 0.5, Estimator::median},
      {"A/A, estimator median", 0.0, 1.0, Estimator::median},
      {"benchmark 0 at +4.5 %, estimator median", 0.045, 1.0, Estimator::median},
      {"benchmark 0 at +4.5 %, body σ 0.025–0.06, estimator median", 0.045, 0.5, Estimator::median},
      {"benchmark 0 at +10 %, estimator median", 0.10, 1.0, Estimator::median},
  };
  std::vector<SuiteRow> rows;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    // The same machines for a case, its "before" and its median: seeds by the noise and the change only.
    const int seed_index = static_cast<int>(100 * cases[i].spread + 1000 * cases[i].delta);
    SuiteTally tally = simulate_suites(cases[i], gates, seed_index);
    std::vector<double> rounds(tally.rounds.begin(), tally.rounds.end());
    const auto rate = [&](long n) { return pct(static_cast<double>(n) / static_cast<double>(tally.gates)); };
    fmt::print("| {} | {} | {} | {} | {} | {:.0f} / {:.0f} |\n", cases[i].name, rate(tally.passes),
               rate(tally.within_60), rate(tally.alarms), rate(tally.benchmark0_passed),
               stats::quantile(rounds, 0.5), stats::quantile(rounds, 0.95));
    std::fflush(stdout);
    rows.push_back({cases[i], std::move(tally)});
  }
  return rows;
}

}  // namespace perfduel::validation
