#include "drift.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <thread>

#include <fmt/format.h>

#include "gates.hpp"
#include "stats/descriptive.hpp"

namespace perfduel::validation {

constexpr double k_drift_lambda = 0.005;

std::vector<DriftAccuracy> validate_drift_accuracy() {
  const NoiseModel& model = k_models[1];
  fmt::print(
      "\n### Drift model: ratio error on identical programs (λ = 5 ms, 1,000 simulations each)\n\n"
      "| runs per side | A-then-B block length | paired (interleaved) median abs error | paired 95th pct | "
      "A-then-B median abs error | A-then-B 95th pct |\n|---|---|---|---|---|---|\n");
  std::vector<DriftAccuracy> rows;
  for (const int n : {1000, 2000, 4000, 8000}) {
    std::vector<double> paired(1000);
    std::vector<double> sequential(1000);
    std::vector<std::thread> workers;
    for (int t = 0; t < g_threads; ++t) {
      workers.emplace_back([&, t] {
        for (int s = t; s < 1000; s += g_threads) {
          const auto idx = static_cast<std::size_t>(s);
          Machine inter(model, gate_seed(200, n, s), k_drift_lambda);
          double sum_d = 0;
          for (int i = 0; i < n; ++i) {
            const auto [a, b] = inter.round(0.0);
            sum_d += std::log(b / a);
          }
          paired[idx] = std::abs(std::expm1(sum_d / n));
          Machine block(model, gate_seed(200, n, s), k_drift_lambda);
          double sum_a = 0;
          double sum_b = 0;
          for (int i = 0; i < n; ++i) {
            sum_a += std::log(block.run(Side::baseline, 1.0));
          }
          for (int i = 0; i < n; ++i) {
            sum_b += std::log(block.run(Side::candidate, 1.0));
          }
          sequential[idx] = std::abs(std::expm1((sum_b - sum_a) / n));
        }
      });
    }
    for (auto& w : workers) {
      w.join();
    }
    const double pm = stats::median(paired);
    const double sm = stats::median(sequential);
    // Mean run time is λ·E[α]·E[β] = λ·1.5·e^(σ²/2).
    const double block_seconds = n * k_drift_lambda * 1.5 * std::exp(0.28 * 0.28 / 2);
    fmt::print("| {} | {:.0f} s | {} | {} | {} | {} |\n", n, block_seconds, pct(pm),
               pct(stats::quantile(paired, 0.95)), pct(sm), pct(stats::quantile(sequential, 0.95)));
    rows.push_back({n, pm, sm});
  }
  return rows;
}

namespace {

// Var(d) of the paired log-ratios against the variance of the unpaired difference per round
// (Var ln A + Var ln B over the same randomly ordered runs), pooled over `count` samples of
// `rounds` rounds: the fixed-N ratio of rounds for the same width, free of any stopping rule.
double drift_variance_ratio(const NoiseModel& model, double lambda, long count, int rounds) {
  double paired = 0;
  double unpaired = 0;
  for (long g = 0; g < count; ++g) {
    Machine machine(model, gate_seed(301, 0, g), lambda);
    std::vector<double> a;
    std::vector<double> b;
    std::vector<double> d;
    for (int i = 0; i < rounds; ++i) {
      const auto [va, vb] = machine.round(0.0);
      a.push_back(std::log(va));
      b.push_back(std::log(vb));
      d.push_back(b.back() - a.back());
    }
    paired += stats::variance(d);
    unpaired += stats::variance(a) + stats::variance(b);
  }
  return paired / unpaired;
}

}  // namespace

std::vector<DriftRounds> validate_drift_rounds(const Options& options) {
  const NoiseModel& model = k_models[1];
  // Var ln α for α = 1.5 + 0.5 sin θ, θ uniform (the phase is random per gate).
  double sum = 0;
  double sum2 = 0;
  const int steps = 100000;
  for (int i = 0; i < steps; ++i) {
    const double v = std::log(1.5 + 0.5 * std::sin(2 * std::numbers::pi * (i + 0.5) / steps));
    sum += v;
    sum2 += v * v;
  }
  const double var_alpha = sum2 / steps - (sum / steps) * (sum / steps);
  const double var_beta = 0.28 * 0.28;
  const double bound = var_beta / (var_beta + var_alpha);
  const long count = std::max(1L, options.gates / 4);
  fmt::print(
      "\n### Drift model: rounds to a {:.0f} % width, paired gate against unpaired Welch ({} A/A gates "
      "each)\n\nVar ln α = {:.4f} over a whole period, σβ² = {:.4f}: no estimator can do better than "
      "σβ² / (σβ² + Var ln α) = {:.2f} of Welch's rounds, reached when a gate spans whole drift periods. "
      "The fixed-N column is Var(d) / (Var ln A + Var ln B) over 300-round samples; the sequential columns "
      "are mean rounds of the width rule (perfduel's stopping check takes σ at its upper 95 % bound; cbdr "
      "as published does not, so it is shown both ways).\n\n"
      "| run time λ | gate length (paired) | fixed-N variance ratio | perfduel default mean rounds | cbdr "
      "Welch "
      "mean rounds | cbdr Welch with the same stopping check | ratio to cbdr (same check) |\n"
      "|---|---|---|---|---|---|---|\n",
      100 * model.threshold, count, var_alpha, var_beta, bound);
  const Config config = gate_config(model, Estimator::mean, Stopping::width, 1, Correction::bonferroni);
  std::vector<DriftRounds> rows;
  for (const double lambda : {0.01, 0.1, 1.0}) {
    const Tally paired = run_gates(
        count, [&](long i) { return simulate_gate(config, model, 0.0, gate_seed(300, 0, i), lambda); });
    const Tally welch =
        run_gates(count, [&](long i) { return simulate_welch(model, 0.0, gate_seed(300, 0, i), lambda); });
    const Tally welch_allowance = run_gates(
        count, [&](long i) { return simulate_welch(model, 0.0, gate_seed(300, 0, i), lambda, true); });
    const double variance_ratio = drift_variance_ratio(model, lambda, std::min(count, 400L), 300);
    const double seconds = paired.mean_rounds() * 2 * lambda * 1.5 * std::exp(0.28 * 0.28 / 2);
    fmt::print("| {:g} s | {:.0f} s | {:.2f} | {:.1f} | {:.1f} | {:.1f} | {:.2f}× |\n", lambda, seconds,
               variance_ratio, paired.mean_rounds(), welch.mean_rounds(), welch_allowance.mean_rounds(),
               paired.mean_rounds() / welch_allowance.mean_rounds());
    std::fflush(stdout);
    rows.push_back(
        {lambda, paired.mean_rounds(), welch.mean_rounds(), welch_allowance.mean_rounds(), variance_ratio});
  }
  return rows;
}

}  // namespace perfduel::validation
