#include "targets.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "stats/estimator.hpp"
#include "util/name_table.hpp"

namespace perfduel::validation {

namespace {

// The exit status: a false-alarm target counts as missed only when the run can tell, i.e.
// when the lower 99 % bound of the rate is above the target (a smoke run of 100 gates fails
// on a broken decision rule, not on binomial noise). The other targets are reported only.
class RateCheck {
 public:
  // The "met" cell of `count` alarms in `gates` against `target`; records a clear miss.
  const char* operator()(long count, long gates, double target) {
    const bool clearly = gates > 0 && wilson_lower_bound(count, gates, 2.576) > target;
    m_missed |= clearly;
    const double rate = gates ? static_cast<double>(count) / static_cast<double>(gates) : 0;
    return rate <= target ? "yes" : clearly ? "NO" : "NO (within binomial noise)";
  }
  void miss() { m_missed = true; }
  bool missed() const { return m_missed; }

 private:
  bool m_missed = false;
};

void print_false_alarm_targets(const std::vector<ModelSummary>& summaries, RateCheck& check_rate) {
  for (const auto& s : summaries) {
    fmt::print("| false alarm ≤ 5.5 % (default), `{}` | {} | {} |\n", s.name, pct(s.default_false_alarm),
               check_rate(s.default_false_alarms, s.aa_gates, 0.055));
  }
}

void print_wide_targets(const std::vector<WideRow>& wide, RateCheck& check_rate) {
  for (const auto& row : wide) {
    const int fewest = row.as_time.all_rounds.empty()
                           ? 0
                           : *std::min_element(row.as_time.all_rounds.begin(), row.as_time.all_rounds.end());
    fmt::print(
        "| wide wall-time gate (1000 %), `{}`: false alarm ≤ 5.5 %, never before min_rounds 15 | {}, "
        "fewest rounds {} | {} |\n",
        row.model, pct(row.as_time.false_alarm()), fewest,
        fewest < 15
            ? "NO"
            : check_rate(row.as_time.regressions + row.as_time.improvements, row.as_time.gates, 0.055));
    if (fewest < 15 && row.as_time.gates > 0) {
      check_rate.miss();
    }
  }
}

void print_suite_targets(const std::vector<SuiteRow>& suites, RateCheck& check_rate) {
  for (const auto& row : suites) {
    const SuiteTally& t = row.tally;
    const auto share = [&](long n) {
      return static_cast<double>(n) / static_cast<double>(std::max(t.gates, 1L));
    };
    if (!row.c.uncorrected_pass) {
      continue;
    }
    const std::string noise =
        fmt::format("{}{}", row.c.spread == 1 ? "body σ 0.05–0.12" : "body σ 0.025–0.06",
                    row.c.estimator == Estimator::mean
                        ? std::string()
                        : ", " + std::string(util::name_of(stats::k_estimator_names, row.c.estimator)));
    if (row.c.delta == 0) {
      fmt::print("| suite A/A ({}): pass within 60 rounds in ≥ 95 % of gates | {} | {} |\n", noise,
                 pct(share(t.within_60)), share(t.within_60) >= 0.95 ? "yes" : "NO");
      fmt::print("| suite A/A ({}): family-wise false alarm ≤ 5.5 % | {} | {} |\n", noise,
                 pct(share(t.alarms)), check_rate(t.alarms, t.gates, 0.055));
    } else if (row.c.delta > 0.03 && row.c.delta < 0.05) {
      fmt::print("| suite ({}): a benchmark at 1.5 × tolerance passes in ≤ 5.5 % | {} | {} |\n", noise,
                 pct(share(t.benchmark0_passed)), check_rate(t.benchmark0_passed, t.gates, 0.055));
    }
  }
}

void print_family_targets(const std::vector<FamilyRate>& family, RateCheck& check_rate) {
  for (const auto& f : family) {
    fmt::print("| family-wise ≤ 5.5 % with 4 gated metrics, {} | {} | {} |\n", f.rule,
               pct(static_cast<double>(f.alarms) / static_cast<double>(std::max(f.gates, 1L))),
               check_rate(f.alarms, f.gates, 0.055));
  }
}

void print_rounds_targets(const std::vector<ModelSummary>& summaries) {
  for (const auto& s : summaries) {
    if (!s.worst_rounds_delta.empty()) {
      fmt::print(
          "| default's mean rounds ≤ 1.1× the better of width-only and anytime at every δ (`{}`) | worst "
          "{:.2f}× "
          "(δ = {}) | {} |\n",
          s.name, s.worst_rounds_ratio, s.worst_rounds_delta, s.worst_rounds_ratio <= 1.1 ? "yes" : "NO");
    }
  }
}

void print_drift_targets(const std::vector<DriftAccuracy>& accuracy,
                         const std::vector<DriftRounds>& drift_rounds) {
  for (const auto& row : accuracy) {
    if (row.sequential >= 0.2) {
      fmt::print(
          "| drift: paired within 0.5 % where A-then-B errs ≥ 20 % (median abs error, {} runs per side) | "
          "paired {}, A-then-B {} | {} |\n",
          row.runs, pct(row.paired), pct(row.sequential), row.paired <= 0.005 ? "yes" : "NO");
    }
  }
  for (const auto& row : drift_rounds) {
    const double ratio = row.paired / row.welch_allowance;
    fmt::print(
        "| drift: ≤ 0.5× the rounds of unpaired Welch for the same width (λ = {:g} s; same stopping check; "
        "fixed-N variance ratio {:.2f}) | {:.1f} / {:.1f} = {:.2f}× | {} |\n",
        row.lambda, row.variance_ratio, row.paired, row.welch_allowance, ratio, ratio <= 0.5 ? "yes" : "NO");
  }
}

void print_anytime_targets(const std::vector<ModelSummary>& summaries) {
  for (const auto& s : summaries) {
    if (s.anytime_rounds_5t > 0 && s.width_rounds_5t > 0) {
      const double ratio = s.anytime_rounds_5t / s.width_rounds_5t;
      fmt::print(
          "| anytime on a 5·T regression ≤ 0.25× the width rule's rounds (`{}`) | {:.1f} / {:.1f} = {:.2f}× "
          "| {} |\n",
          s.name, s.anytime_rounds_5t, s.width_rounds_5t, ratio, ratio <= 0.25 ? "yes" : "NO");
    }
  }
}

}  // namespace

bool print_targets(const Results& results) {
  fmt::print("\n## Targets\n\n| target | figure | met |\n|---|---|---|\n");
  RateCheck check_rate;
  print_false_alarm_targets(results.summaries, check_rate);
  print_wide_targets(results.wide, check_rate);
  print_suite_targets(results.suites, check_rate);
  print_family_targets(results.family, check_rate);
  print_rounds_targets(results.summaries);
  print_drift_targets(results.accuracy, results.drift_rounds);
  print_anytime_targets(results.summaries);
  std::fflush(stdout);
  return check_rate.missed();
}

}  // namespace perfduel::validation
