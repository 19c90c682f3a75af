#include "zeros.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "error.hpp"
#include "gates.hpp"
#include "stats/descriptive.hpp"
#include "support/stats_simulation.hpp"

namespace perfduel::validation {

namespace {

// The true CPU times of a quantized model (test::QuantizedModel), or a constant one that reads
// 0 with a given chance and one tick otherwise (the zero rule's sweep).
struct QuantizedCase {
  std::string name;
  std::optional<test::QuantizedModel> model;  // empty: the constant time below
  double zero_chance = 0;                     // constant time: reads 0 with this chance
  double threshold = 0.3;
};

constexpr double k_tick = 0.004;

// One gate on user_time readings (zeros allowed) through perfduel::analyze, as simulate_gate
// does: a warm-up round, analysis after every round, the final verdict; a refusal by the zero
// rule ends it as the driver would (exit code 2).
GateResult simulate_quantized_gate(const QuantizedCase& c, double delta, std::uint64_t seed) {
  Config config;
  config.min_rounds = g_min_rounds;
  config.max_rounds = k_max_rounds;
  MetricSpec spec;
  spec.name = "user_time";
  spec.source = MetricSource::user_time;
  spec.unit = "s";
  spec.gating = Gating::gated;
  spec.threshold = c.threshold;
  config.metrics.push_back(spec);
  Rng rng(seed);
  std::vector<RunRecord> runs;
  GateResult result;
  try {
    for (int round = 0; round <= k_max_rounds; ++round) {
      double a = 0;
      double b = 0;
      if (c.model) {
        const auto [va, vb] = test::quantized_rounds(rng, 1, *c.model, delta);
        a = va[0];
        b = vb[0];
      } else {
        const double u = k_tick * (1 - c.zero_chance);
        a = test::tick_reading(rng, u, k_tick);
        b = test::tick_reading(rng, u * (1 + delta), k_tick);
      }
      runs.push_back({round, Side::baseline, round == 0, {a}});
      runs.push_back({round, Side::candidate, round == 0, {b}});
      if (round >= config.min_rounds && analyze(config, runs, Finality::ongoing).can_stop) {
        break;
      }
    }
    result = judged_gate(config, runs, delta);
  } catch (const Error&) {
    result.refused = true;
    result.verdict = Verdict::inconclusive;
    result.rounds = static_cast<int>(runs.size() / 2) - 1;
  }
  return result;
}

// The ratio-of-means interval alone at a fixed number of rounds: coverage of the true ratio.
double fixed_sample_coverage(test::QuantizedModel model, double delta, std::size_t rounds, long trials) {
  Rng rng(gate_seed(900 + rounds, static_cast<int>(100 * delta), 0));
  stats::EstimatorOptions options;
  options.autocorrelation_limit = 1.0;  // the plain interval, not batching's widening
  long covered = 0;
  for (long t = 0; t < trials; ++t) {
    const auto [a, b] = test::quantized_rounds(rng, rounds, model, delta);
    const auto e = stats::estimate(Estimator::ratio, a, b, options);
    covered += e.status == stats::EstimateStatus::ok && e.ci.contains(std::log1p(delta)) ? 1 : 0;
  }
  return static_cast<double>(covered) / static_cast<double>(trials);
}

// Prints the fixed-sample coverage of the ratio-of-means interval, after the section's heading.
void print_fixed_sample_coverage(const Options& options) {
  fmt::print(
      "\n### Zero readings: CPU time quantized to a {:g} ms tick\n\nReadings: tick·⌊u/tick + U⌋ (whole ticks "
      "at a random phase: unbiased, 0 with chance 1 − u/tick for u < tick); metric `user_time`, gated, so "
      "the "
      "ratio of means takes over at the first 0. {} A/A gates and {} gates per δ, default mode.\n\n"
      "Fixed-sample coverage of the 95 % ratio-of-means interval (no batching; {} samples each):\n\n"
      "| true times | δ | 40 rounds | 200 rounds |\n|---|---|---|---|\n",
      1000 * k_tick, options.gates, options.detection_gates, options.gates);
  for (const auto model : {test::QuantizedModel::exponential, test::QuantizedModel::lognormal}) {
    for (const double delta : {0.0, 0.1}) {
      fmt::print("| {} | {:+.0f} % | {} | {} |\n",
                 model == test::QuantizedModel::exponential
                     ? "exponential, mean 6 ms (27 % zeros)"
                     : "log-normal, 3 ms, shared round factor (25 % zeros)",
                 100 * delta, pct(fixed_sample_coverage(model, delta, 40, options.gates)),
                 pct(fixed_sample_coverage(model, delta, 200, options.gates)));
    }
  }
}

// The zero rule alone: the share of gates refused within 150 rounds (looks from round 10 on)
// when each run of either side reads 0 with chance p, against the plain-majority rule.
void print_zero_rule_sweep(const Options& options) {
  fmt::print(
      "\nThe zero rule: gates refused within 150 rounds (looked at after every round from round {}) when "
      "each run reads 0 with chance p; {} simulated gates each:\n\n"
      "| p | more than half so far | 99.9 % lower bound above ½ (the rule) |\n|---|---|---|\n",
      k_zero_rule_rounds, 2 * options.gates);
  for (const double p : {0.125, 0.25, 0.3, 0.4, 0.5, 0.6, 0.9}) {
    Rng rng(gate_seed(70, static_cast<int>(1000 * p), 0));
    std::bernoulli_distribution zero(p);
    long majority = 0;
    long bound = 0;
    for (long g = 0; g < 2 * options.gates; ++g) {
      std::size_t zeros_a = 0;
      std::size_t zeros_b = 0;
      bool by_majority = false;
      bool by_bound = false;
      for (std::size_t n = 1; n <= 150; ++n) {
        zeros_a += zero(rng) ? 1 : 0;
        zeros_b += zero(rng) ? 1 : 0;
        const std::size_t most = std::max(zeros_a, zeros_b);
        if (n >= static_cast<std::size_t>(k_zero_rule_rounds)) {
          by_majority |= 2 * most > n;
          by_bound |= stats::proportion_lower_bound(most, n, k_zero_rule_confidence) > 0.5;
        }
      }
      majority += by_majority ? 1 : 0;
      bound += by_bound ? 1 : 0;
    }
    const double gates = 2.0 * static_cast<double>(options.gates);
    fmt::print("| {:g} | {} | {} |\n", p, pct(static_cast<double>(majority) / gates),
               pct(static_cast<double>(bound) / gates));
  }
}

// Prints the gates on quantized readings: A/A, +10 % and +20 %, per case.
void print_quantized_gates(const Options& options) {
  const std::vector<QuantizedCase> cases{
      {"exponential, mean 6 ms (27 % zeros)", test::QuantizedModel::exponential, 0, 0.5},
      {"log-normal, 3 ms (25 % zeros)", test::QuantizedModel::lognormal, 0, 0.3},
      {"log-normal, 3 ms (25 % zeros)", test::QuantizedModel::lognormal, 0, 0.15},
      {"one tick or 0, 12.5 % zeros", std::nullopt, 0.125, 0.3},
      {"one tick or 0, 30 % zeros", std::nullopt, 0.3, 0.3},
      {"one tick or 0, 40 % zeros", std::nullopt, 0.4, 0.3},
      {"one tick or 0, 50 % zeros", std::nullopt, 0.5, 0.3},
      {"one tick or 0, 60 % zeros", std::nullopt, 0.6, 0.3},
  };
  fmt::print(
      "\nGates (A/A: false alarm = regression or improvement; refused = ended by the zero rule, exit code 2; "
      "coverage at the stop; detection = regression verdict):\n\n"
      "| true times | T | A/A false alarm | refused | no change | mean rounds | coverage | +10 % detected | "
      "+20 % detected | refused at +20 % |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const Tally aa = run_gates(
        options.gates, [&](long g) { return simulate_quantized_gate(c, 0.0, gate_seed(50 + i, 0, g)); });
    const Tally d10 = run_gates(options.detection_gates, [&](long g) {
      return simulate_quantized_gate(c, 0.1, gate_seed(50 + i, 1, g));
    });
    const Tally d20 = run_gates(options.detection_gates, [&](long g) {
      return simulate_quantized_gate(c, 0.2, gate_seed(50 + i, 2, g));
    });
    const long no_change = aa.gates - aa.regressions - aa.improvements - aa.undecided;
    fmt::print("| {} | {:.0f} % | {} | {} | {} | {:.1f} | {} | {} | {} | {} |\n", c.name, 100 * c.threshold,
               pct(aa.false_alarm()), pct(aa.rate(aa.refused)), pct(aa.rate(no_change)), aa.mean_rounds(),
               aa.with_ci > 0 ? pct(aa.coverage()) : "—", pct(d10.rate(d10.regressions)),
               pct(d20.rate(d20.regressions)), pct(d20.rate(d20.refused)));
    std::fflush(stdout);
  }
}

}  // namespace

void validate_zeros(const Options& options) {
  print_fixed_sample_coverage(options);
  print_zero_rule_sweep(options);
  print_quantized_gates(options);
}

}  // namespace perfduel::validation
