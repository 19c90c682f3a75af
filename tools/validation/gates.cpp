#include "gates.hpp"

#include <atomic>
#include <cmath>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "stats/paired.hpp"

namespace perfduel::validation {

int g_min_rounds = 20;

Config gate_config(const NoiseModel& model, Estimator estimator, Stopping stopping, int metric_count,
                   Correction correction) {
  Config config;
  config.min_rounds = g_min_rounds;
  config.max_rounds = k_max_rounds;
  config.stopping = stopping;
  config.correction = correction;
  for (int m = 0; m < metric_count; ++m) {
    MetricSpec spec;
    spec.name = fmt::format("metric{}", m);
    spec.gating = Gating::gated;
    spec.threshold = model.threshold;
    spec.estimator = estimator;
    config.metrics.push_back(spec);
  }
  return config;
}

// The final analysis of a gate's `runs`, as the driver makes it when the gate ends; `delta` is
// the true change, for the coverage of the interval of metric 0. With several metrics, a false
// alarm is any metric's decision.
GateResult judged_gate(const Config& config, const std::vector<RunRecord>& runs, double delta) {
  GateResult result;
  const Analysis final_analysis = analyze(config, runs, Finality::final);
  result.verdict = final_analysis.verdict;
  result.rounds = final_analysis.measured_rounds;
  const auto& metric = final_analysis.metrics.front();
  result.has_ci = metric.estimate.status == stats::EstimateStatus::ok;
  result.covered = result.has_ci && metric.estimate.ci.contains(std::log1p(delta));
  result.batch_size = metric.estimate.batch_size;
  result.lag1 = metric.estimate.lag1;
  if (final_analysis.metrics.size() > 1) {
    for (const auto& m : final_analysis.metrics) {
      if (m.verdict == Verdict::regression || m.verdict == Verdict::improvement) {
        result.verdict = m.verdict;
      }
    }
  }
  return result;
}

// One gate through perfduel::analyze, exactly as the driver does it: one warm-up round, then
// rounds in random order, analysed after every round, stopping when the analysis says so or
// the budget is spent, and a final analysis for the verdict. With several metrics, metric 0
// follows the model and the others are independent iid noise (the worst case for the
// family-wise error of Bonferroni and Holm).
GateResult simulate_gate(const Config& config, const NoiseModel& model, double delta, std::uint64_t seed,
                         double lambda, int first_look) {
  // The driver analyses every round, and the sign sequence may stop a duel before min_rounds, so
  // the simulation analyses from the first measured round unless `first_look` says otherwise.
  first_look = first_look < 0 ? 1 : first_look;
  Machine machine(model, seed, lambda);
  std::normal_distribution<double> extra(0.0, 0.03);
  const std::size_t metric_count = config.metrics.size();
  std::vector<RunRecord> runs;
  runs.reserve(2 * k_max_rounds + 2);
  auto make_run = [&](int round, Side side, bool warmup) {
    RunRecord record{round, side, warmup, {}};
    const double factor = side == Side::candidate ? 1.0 + delta : 1.0;
    record.values.push_back(machine.run(side, factor));
    for (std::size_t m = 1; m < metric_count; ++m) {
      record.values.push_back(factor * std::exp(extra(machine.rng())));
    }
    return record;
  };
  for (int round = 0; round <= k_max_rounds; ++round) {
    const bool warmup = round == 0;
    const bool candidate_first = machine.coin();
    const Side first = candidate_first ? Side::candidate : Side::baseline;
    const Side second = candidate_first ? Side::baseline : Side::candidate;
    runs.push_back(make_run(round, first, warmup));
    runs.push_back(make_run(round, second, warmup));
    if (round >= first_look && analyze(config, runs, Finality::ongoing).can_stop) {
      break;
    }
  }
  return judged_gate(config, runs, delta);
}

Verdict judge_welch(const stats::WelchComparison& w, double threshold, bool width_rule) {
  const double lo = std::expm1(w.ci.lo);
  const double hi = std::expm1(w.ci.hi);
  if (lo > 0) {
    return Verdict::regression;
  }
  if (hi < 0) {
    return Verdict::improvement;
  }
  return !width_rule || hi - lo <= threshold ? Verdict::no_change : Verdict::inconclusive;
}

// cbdr: the same randomly ordered runs, analysed as two independent samples (Welch on the
// logs), with the same width rule and budget as the gate.
// With `allowance`, the stopping check takes σ at its upper 95 % bound as the gate's does
// (over Welch's degrees of freedom + 1 units), so that both stop by the same rule.
GateResult simulate_welch(const NoiseModel& model, double delta, std::uint64_t seed, double lambda,
                          bool allowance) {
  Machine machine(model, seed, lambda);
  std::vector<double> a;
  std::vector<double> b;
  GateResult result;
  std::optional<stats::WelchComparison> w;
  for (int round = 0; round <= k_max_rounds; ++round) {
    const auto [va, vb] = machine.round(delta);
    if (round == 0) {
      continue;  // warm-up
    }
    a.push_back(std::log(va));
    b.push_back(std::log(vb));
    if (static_cast<int>(a.size()) >= g_min_rounds) {
      w = stats::welch(a, b, 0.95);
      const double width =
          allowance
              ? std::expm1(w->ci.width() * stats::sigma_upper_bound_factor(
                                               static_cast<std::size_t>(w->degrees_of_freedom) + 1, 0.95))
              : std::expm1(w->ci.hi) - std::expm1(w->ci.lo);
      if (width <= model.threshold) {
        break;
      }
    }
  }
  result.rounds = static_cast<int>(a.size());
  result.verdict = judge_welch(*w, model.threshold, true);
  result.has_ci = true;
  result.covered = w->ci.contains(std::log1p(delta));
  return result;
}

// The traditional method: N runs of A, then N runs of B, Welch on the logs, no stopping rule.
GateResult simulate_a_then_b(const NoiseModel& model, double delta, std::uint64_t seed, int n) {
  Machine machine(model, seed);
  std::vector<double> a;
  std::vector<double> b;
  machine.run(Side::baseline, 1.0);  // warm-up
  for (int i = 0; i < n; ++i) {
    a.push_back(std::log(machine.run(Side::baseline, 1.0)));
  }
  for (int i = 0; i < n; ++i) {
    b.push_back(std::log(machine.run(Side::candidate, 1.0 + delta)));
  }
  const auto w = stats::welch(a, b, 0.95);
  GateResult result;
  result.rounds = n;
  result.verdict = judge_welch(*w, model.threshold, false);
  result.has_ci = true;
  result.covered = w->ci.contains(std::log1p(delta));
  return result;
}

int g_threads = 2;

// Runs `count` gates on the worker threads; `gate(i)` must depend only on i (seeded), so the
// result does not depend on the number of threads.
Tally run_gates(long count, const std::function<GateResult(long)>& gate) {
  std::vector<Tally> tallies(static_cast<std::size_t>(g_threads));
  std::atomic<long> next{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < g_threads; ++t) {
    workers.emplace_back([&, t] {
      for (long i = next++; i < count; i = next++) {
        tallies[static_cast<std::size_t>(t)].add(gate(i));
      }
    });
  }
  for (auto& w : workers) {
    w.join();
  }
  Tally total;
  for (const auto& t : tallies) {
    total.merge(t);
  }
  return total;
}

std::uint64_t gate_seed(std::size_t model, int delta_index, long gate) {
  // SplitMix-style mixing of the three indices: distinct, reproducible streams.
  std::uint64_t z = 0x9E3779B97F4A7C15ULL * (model + 1) +
                    0xBF58476D1CE4E5B9ULL * static_cast<std::uint64_t>(delta_index + 7) +
                    0x94D049BB133111EBULL * static_cast<std::uint64_t>(gate + 13);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Lower bound of the Wilson score interval for `count` successes in `n` trials at normal
// quantile `z`: the binomial rate is at least this, with the interval's confidence.
double wilson_lower_bound(long count, long n, double z) {
  const double p = static_cast<double>(count) / static_cast<double>(n);
  const double nn = static_cast<double>(n);
  const double center = p + z * z / (2 * nn);
  const double spread = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn));
  return (center - spread) / (1 + z * z / nn);
}

std::string pct(double x) {
  return fmt::format("{:.2f} %", 100 * x);
}

}  // namespace perfduel::validation
