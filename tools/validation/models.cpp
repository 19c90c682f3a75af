#include "models.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace perfduel::validation {

std::string method_key(Method method) {
  switch (method) {
    case Method::gate_hybrid:
      return "default";
    case Method::gate_mean:
      return "width";
    case Method::gate_median:
      return "median";
    case Method::gate_min:
      return "min";
    case Method::gate_anytime:
      return "anytime";
    case Method::welch_random:
      return "cbdr";
    case Method::a_then_b:
      return "a-then-b";
  }
  return "";
}

std::string method_name(Method method) {
  switch (method) {
    case Method::gate_hybrid:
      return "perfduel default (mean, hybrid stopping)";
    case Method::gate_mean:
      return "perfduel width rule only (mean)";
    case Method::gate_median:
      return "perfduel median";
    case Method::gate_min:
      return "perfduel min (tim)";
    case Method::gate_anytime:
      return "perfduel anytime";
    case Method::welch_random:
      return "unpaired Welch, random order (cbdr)";
    case Method::a_then_b:
      return "A-then-B, fixed N";
  }
  return "";
}

std::mutex g_trace_mutex;
std::ofstream g_trace;

namespace {

const char* const k_delta_names[] = {"0", "T/2", "T", "2T", "5T", "20T"};

// Mean and 95th-percentile rounds to a verdict of the three stopping rules at each δ.
void print_rounds_table(const std::map<Method, std::vector<Tally>>& tallies, ModelSummary& summary) {
  const Method rules[] = {Method::gate_hybrid, Method::gate_mean, Method::gate_anytime};
  if (std::none_of(std::begin(rules), std::end(rules), [&](Method rule) { return tallies.contains(rule); })) {
    return;
  }
  fmt::print(
      "\nRounds to a verdict (mean / 95th percentile) by stopping rule:\n\n| stopping rule | δ = 0 | T | 2T "
      "| 5T "
      "| 20T |\n|---|---|---|---|---|---|\n");
  const std::size_t shown[] = {0, 2, 3, 4, 5};
  for (const Method rule : rules) {
    if (!tallies.contains(rule)) {
      continue;
    }
    std::string row = "| " + method_name(rule) + " |";
    for (const std::size_t di : shown) {
      const Tally& t = tallies.at(rule)[di];
      row += fmt::format(" {:.1f} / {:.0f} |", t.mean_rounds(), t.rounds_quantile(0.95));
    }
    fmt::print("{}\n", row);
  }
  if (std::any_of(std::begin(rules), std::end(rules), [&](Method rule) { return !tallies.contains(rule); })) {
    return;  // the comparison needs all three
  }
  for (const std::size_t di : shown) {
    const double best = std::min(tallies.at(Method::gate_mean)[di].mean_rounds(),
                                 tallies.at(Method::gate_anytime)[di].mean_rounds());
    const double ratio = tallies.at(Method::gate_hybrid)[di].mean_rounds() / best;
    if (ratio > summary.worst_rounds_ratio) {
      summary.worst_rounds_ratio = ratio;
      summary.worst_rounds_delta = k_delta_names[di];
    }
  }
}

// The gate of `method` on model `index` at the true change `delta` (δ index `delta_index`):
// gate i of it, seeded; A-then-B runs `fixed_n` runs per side.
std::function<GateResult(long)> method_gate(Method method, std::size_t index, double delta, std::size_t di,
                                            int fixed_n) {
  const NoiseModel& model = k_models[index];
  const int delta_index = static_cast<int>(di);
  std::function<GateResult(long)> gate;
  switch (method) {
    case Method::gate_hybrid:
    case Method::gate_mean:
    case Method::gate_median:
    case Method::gate_min:
    case Method::gate_anytime: {
      const Estimator estimator = method == Method::gate_median ? Estimator::median
                                  : method == Method::gate_min  ? Estimator::min
                                                                : Estimator::mean;
      const Stopping stopping = method == Method::gate_anytime  ? Stopping::anytime
                                : method == Method::gate_hybrid ? Stopping::hybrid
                                                                : Stopping::width;
      const Config config = gate_config(model, estimator, stopping, 1, Correction::bonferroni);
      const bool trace = g_trace.is_open() && method == Method::gate_hybrid && di == 0;
      gate = [=, &model](long i) {
        const GateResult r = simulate_gate(config, model, delta, gate_seed(index, delta_index, i));
        if (trace) {
          const std::lock_guard lock(g_trace_mutex);
          g_trace << fmt::format("{},{},{},{},{:.4f},{}\n", model.name, i, r.rounds, r.batch_size, r.lag1,
                                 to_string(r.verdict));
        }
        return r;
      };
      break;
    }
    case Method::welch_random:
      gate = [=, &model](long i) { return simulate_welch(model, delta, gate_seed(index, delta_index, i)); };
      break;
    case Method::a_then_b:
      gate = [=, &model](long i) {
        return simulate_a_then_b(model, delta, gate_seed(index, delta_index, i), fixed_n);
      };
      break;
  }
  return gate;
}

// Takes what the targets table needs from `method`'s `tallies` (one per δ) into `summary`; the
// default mode's tallies also set A-then-B's `fixed_n`.
void summarize_method(Method method, const std::vector<Tally>& tallies, int& fixed_n, ModelSummary& summary) {
  const Tally& aa = tallies[0];
  if (method == Method::gate_hybrid) {
    fixed_n = std::max(g_min_rounds, static_cast<int>(std::lround(aa.mean_rounds())));
    summary.default_false_alarm = aa.false_alarm();
    summary.default_false_alarms = aa.regressions + aa.improvements;
    summary.aa_gates = aa.gates;
    summary.default_rounds_aa = aa.mean_rounds();
  }
  if (method == Method::gate_mean) {
    summary.width_rounds_5t = tallies[4].mean_rounds();
  }
  if (method == Method::gate_anytime) {
    summary.anytime_rounds_5t = tallies[4].mean_rounds();
  }
  if (method == Method::welch_random) {
    summary.welch_rounds_aa = aa.mean_rounds();
  }
}

// The table's row of `method`, from its `tallies` (one per δ).
void print_method_row(Method method, const std::vector<Tally>& tallies, int fixed_n) {
  const Tally& aa = tallies[0];
  const std::string name = method == Method::a_then_b
                               ? fmt::format("{} (N = {})", method_name(method), fixed_n)
                               : method_name(method);
  fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1f} | {:.1f} |\n", name,
             pct(aa.false_alarm()), pct(aa.rate(aa.regressions)), pct(aa.coverage()),
             pct(aa.rate(aa.undecided)), pct(tallies[1].rate(tallies[1].regressions)),
             pct(tallies[2].rate(tallies[2].regressions)), pct(tallies[3].rate(tallies[3].regressions)),
             pct(tallies[4].rate(tallies[4].regressions)), aa.mean_rounds(), tallies[4].mean_rounds());
  std::fflush(stdout);
}

}  // namespace

ModelSummary validate_model(std::size_t index, const Options& options) {
  const NoiseModel& model = k_models[index];
  const double t = model.threshold;
  const std::vector<double> deltas{0.0, t / 2, t, 2 * t, 5 * t, 20 * t};
  const std::vector<Method> methods{Method::gate_hybrid, Method::gate_mean,    Method::gate_median,
                                    Method::gate_min,    Method::gate_anytime, Method::welch_random,
                                    Method::a_then_b};
  fmt::print("\n### Model `{}`: {} (T = {:.0f} %)\n\n", model.name, model.description, 100 * t);
  fmt::print(
      "| method | A/A false alarm (reg + imp) | A/A regression | A/A CI coverage | A/A undecided | "
      "detect T/2 | detect T | detect 2T | detect 5T | mean rounds A/A | mean rounds 5T |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|---|---|\n");
  ModelSummary summary;
  summary.name = model.name;
  int fixed_n = 0;
  std::map<Method, std::vector<Tally>> by_method;
  for (const Method method : methods) {
    if (!selected(options.methods, method_key(method)) &&
        !(method == Method::gate_hybrid && selected(options.methods, "a-then-b"))) {
      continue;  // A-then-B takes its N from the default mode's rounds
    }
    std::vector<Tally> tallies;
    for (std::size_t di = 0; di < deltas.size(); ++di) {
      const long count = di == 0 ? options.gates : options.detection_gates;
      tallies.push_back(run_gates(count, method_gate(method, index, deltas[di], di, fixed_n)));
    }
    summarize_method(method, tallies, fixed_n, summary);
    print_method_row(method, tallies, fixed_n);
    by_method.emplace(method, std::move(tallies));
  }
  print_rounds_table(by_method, summary);
  return summary;
}

std::vector<WideRow> validate_wide(const Options& options) {
  fmt::print(
      "\n## Wide threshold: a time is not a count\n\nA/A gates, wall time gated at 1000 % (tolerance 0), "
      "min_rounds 15, analysed after every round; {} gates per model. \"as a count\": the same values "
      "with the shortcut of counted metrics (3 rounds once each side's runs lie within T/100).\n\n"
      "| model | false alarm, as a time | fewest / mean rounds | false alarm, as a count | fewest / mean "
      "rounds |\n|---|---|---|---|---|\n",
      options.gates);
  std::vector<WideRow> rows;
  for (std::size_t m = 0; m < k_models.size(); ++m) {
    const NoiseModel& model = k_models[m];
    if (!selected(options.models, model.name)) {
      continue;
    }
    WideRow row{model.name, {}, {}};
    for (const MetricSource source : {MetricSource::wall_time, MetricSource::counter}) {
      Config config = gate_config(model, Estimator::mean, Stopping::hybrid, 1, Correction::bonferroni);
      config.min_rounds = 15;
      config.metrics[0].threshold = 10.0;
      config.metrics[0].source = source;
      const Tally tally = run_gates(options.gates, [&](long i) {
        return simulate_gate(config, model, 0.0, gate_seed(m, 20, i), k_lambda, 1);
      });
      (source == MetricSource::wall_time ? row.as_time : row.as_count) = tally;
    }
    const auto fewest = [](const Tally& t) {
      return t.all_rounds.empty() ? 0 : *std::min_element(t.all_rounds.begin(), t.all_rounds.end());
    };
    fmt::print("| `{}` | {} | {} / {:.1f} | {} | {} / {:.1f} |\n", model.name, pct(row.as_time.false_alarm()),
               fewest(row.as_time), row.as_time.mean_rounds(), pct(row.as_count.false_alarm()),
               fewest(row.as_count), row.as_count.mean_rounds());
    std::fflush(stdout);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<FamilyRate> validate_family(const Options& options) {
  const NoiseModel& model = k_models[0];
  fmt::print(
      "\n### Family-wise false alarm, 4 gated metrics (A/A, metric 0 `iid`, others independent iid σ = 0.03, "
      "T = 2 %)\n\n| decision rule | any metric decided (family-wise false alarm) | mean rounds "
      "|\n|---|---|---|\n");
  std::vector<FamilyRate> rates;
  const std::pair<std::string, Config> rules[] = {
      {"Bonferroni, hybrid (default)",
       gate_config(model, Estimator::mean, Stopping::hybrid, 4, Correction::bonferroni)},
      {"Bonferroni, width rule",
       gate_config(model, Estimator::mean, Stopping::width, 4, Correction::bonferroni)},
      {"Holm, width rule", gate_config(model, Estimator::mean, Stopping::width, 4, Correction::holm)},
      {"Bonferroni, anytime",
       gate_config(model, Estimator::mean, Stopping::anytime, 4, Correction::bonferroni)},
  };
  for (const auto& [name, config] : rules) {
    const Tally tally = run_gates(
        options.gates, [&](long i) { return simulate_gate(config, model, 0.0, gate_seed(100, 0, i)); });
    rates.push_back({name, tally.regressions + tally.improvements, tally.gates});
    fmt::print("| {} | {} | {:.1f} |\n", name, pct(tally.false_alarm()), tally.mean_rounds());
    std::fflush(stdout);
  }
  return rates;
}
}  // namespace perfduel::validation
