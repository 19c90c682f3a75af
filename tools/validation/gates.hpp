// One simulated gate through perfduel's decision code and through the methods it replaces,
// and the tallies of many gates.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "machine.hpp"
#include "stats/descriptive.hpp"
#include "stats/welch.hpp"

namespace perfduel::validation {

extern int g_min_rounds;  // the gates' min_rounds (--min-rounds)
extern int g_threads;     // worker threads of run_gates (--threads)

// What one gate ended with.
struct GateResult {
  Verdict verdict = Verdict::inconclusive;
  int rounds = 0;
  bool has_ci = false;
  bool covered = false;
  std::size_t batch_size = 1;  // of metric 0 at the stop
  double lag1 = 0;
  bool refused = false;  // the zero rule ended the gate (exit code 2)
};

// A gate's configuration under `model`: `metric_count` gated metrics at the model's threshold,
// each with `estimator`, stopped by `stopping`, corrected by `correction`.
Config gate_config(const NoiseModel& model, Estimator estimator, Stopping stopping, int metric_count,
                   Correction correction);

// The final analysis of a gate's `runs`, as the driver makes it when the gate ends; `delta` is
// the true change, for the coverage of the interval of metric 0. With several metrics, a false
// alarm is any metric's decision.
GateResult judged_gate(const Config& config, const std::vector<RunRecord>& runs, double delta);

// One gate through perfduel::analyze, exactly as the driver does it: one warm-up round, then
// rounds in random order, analysed after every round, stopping when the analysis says so or
// the budget is spent, and a final analysis for the verdict. With several metrics, metric 0
// follows the model and the others are independent iid noise (the worst case for the
// family-wise error of Bonferroni and Holm).
// `config` and `model` set the gate, `delta` the true change, `seed` the machine, `lambda` the
// nominal run time; `first_look` is the first round analysed (-1: the first measured round).
GateResult simulate_gate(const Config& config, const NoiseModel& model, double delta, std::uint64_t seed,
                         double lambda = k_lambda, int first_look = -1);

// The verdict of Welch comparison `w` against `threshold`; without `width_rule`, a CI that
// contains 0 is no change whatever its width.
Verdict judge_welch(const stats::WelchComparison& w, double threshold, bool width_rule);

// cbdr: the same randomly ordered runs, analysed as two independent samples (Welch on the
// logs), with the same width rule and budget as the gate.
// With `allowance`, the stopping check takes σ at its upper 95 % bound as the gate's does
// (over Welch's degrees of freedom + 1 units), so that both stop by the same rule.
// `model`, `delta`, `seed` and `lambda` as for simulate_gate.
GateResult simulate_welch(const NoiseModel& model, double delta, std::uint64_t seed, double lambda = k_lambda,
                          bool allowance = false);

// The traditional method: `n` runs of A, then `n` runs of B, Welch on the logs, no stopping
// rule; `model`, `delta` and `seed` as for simulate_gate.
GateResult simulate_a_then_b(const NoiseModel& model, double delta, std::uint64_t seed, int n);

// The counts of many gates' results: verdicts, coverage, rounds.
struct Tally {
  long gates = 0;
  long regressions = 0;
  long improvements = 0;
  long undecided = 0;  // inconclusive, unstable or pending
  long with_ci = 0;
  long covered = 0;
  long refused = 0;
  double rounds = 0;
  std::vector<int> all_rounds;  // per gate, for percentiles

  void add(const GateResult& r) {
    all_rounds.push_back(r.rounds);
    ++gates;
    regressions += r.verdict == Verdict::regression ? 1 : 0;
    improvements += r.verdict == Verdict::improvement ? 1 : 0;
    undecided += (r.verdict == Verdict::inconclusive || r.verdict == Verdict::unstable ||
                  r.verdict == Verdict::pending)
                     ? 1
                     : 0;
    with_ci += r.has_ci ? 1 : 0;
    covered += r.covered ? 1 : 0;
    refused += r.refused ? 1 : 0;
    rounds += r.rounds;
  }
  void merge(const Tally& o) {
    gates += o.gates;
    regressions += o.regressions;
    improvements += o.improvements;
    undecided += o.undecided;
    with_ci += o.with_ci;
    covered += o.covered;
    refused += o.refused;
    rounds += o.rounds;
    all_rounds.insert(all_rounds.end(), o.all_rounds.begin(), o.all_rounds.end());
  }
  double rate(long count) const {
    return gates ? static_cast<double>(count) / static_cast<double>(gates) : 0;
  }
  double false_alarm() const { return rate(regressions + improvements); }
  double coverage() const {
    return with_ci ? static_cast<double>(covered) / static_cast<double>(with_ci) : 0;
  }
  double mean_rounds() const { return gates ? rounds / static_cast<double>(gates) : 0; }
  double rounds_quantile(double q) const {
    if (all_rounds.empty()) {
      return 0;
    }
    std::vector<double> values(all_rounds.begin(), all_rounds.end());
    return stats::quantile(values, q);
  }
};

// Runs `count` gates on the worker threads; `gate(i)` must depend only on i (seeded), so the
// result does not depend on the number of threads.
Tally run_gates(long count, const std::function<GateResult(long)>& gate);

// The seed of gate `gate` of model `model` at δ index `delta_index`: distinct, reproducible
// streams.
std::uint64_t gate_seed(std::size_t model, int delta_index, long gate);

// Lower bound of the Wilson score interval for `count` successes in `n` trials at normal
// quantile `z`: the binomial rate is at least this, with the interval's confidence.
double wilson_lower_bound(long count, long n, double z);

// `x` as a percentage with two decimals ("4.20 %").
std::string pct(double x);

}  // namespace perfduel::validation
