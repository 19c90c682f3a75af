// The headline every report format gives a finished duel (the table's and the Markdown's
// last line, the SVG's title): how long it took, and why it ended, in words that agree with
// the metrics' verdicts.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "duel/analysis.hpp"
#include "duel/duel.hpp"
#include "report/duel_plot.hpp"
#include "report/table.hpp"
#include "report_format/json_report.hpp"
#include "util/text.hpp"

using namespace perfduel;

namespace {

MetricSpec gated_metric(const std::string& name) {
  MetricSpec spec;
  spec.name = name;
  spec.source = MetricSource::regex;
  spec.pattern = "(x)";
  spec.gating = Gating::gated;
  spec.threshold = 0.02;
  return spec;
}

// 30 rounds of two gated metrics: "fast" twice as slow in the candidate with little noise,
// "noisy" unchanged with 20 % noise, far too much to settle in 30 rounds.
std::vector<RunRecord> two_metric_runs() {
  std::mt19937_64 rng(13);
  std::normal_distribution<double> small(0.0, 0.01);
  std::normal_distribution<double> large(0.0, 0.2);
  std::vector<RunRecord> runs;
  for (int round = 0; round < 30; ++round) {
    runs.push_back({round, Side::baseline, false, {std::exp(small(rng)), std::exp(large(rng))}});
    runs.push_back({round, Side::candidate, false, {2 * std::exp(small(rng)), std::exp(large(rng))}});
  }
  return runs;
}

// A duel stopped by the anytime rule on the regression of "fast", after `seconds`.
struct AnytimeStop {
  Config config;
  DuelOutcome outcome;
  RunSummary summary;

  explicit AnytimeStop(double seconds) {
    config.stopping = Stopping::anytime;
    config.metrics = {gated_metric("fast"), gated_metric("noisy")};
    config.baseline.emplace().argv = {"bench", "--old"};
    config.candidate.emplace().argv = {"bench", "--new"};
    outcome.metrics = config.metrics;
    outcome.runs = two_metric_runs();
    const Analysis ongoing = analyze(config, outcome.runs, Finality::ongoing);
    REQUIRE(ongoing.can_stop);
    outcome.end = ongoing.stop;
    outcome.analysis = analyze(config, outcome.runs, Finality::final);
    outcome.elapsed_seconds = seconds;
    summary.config = &config;
    summary.outcome = &outcome;
    summary.exit_code = exit_code_for(outcome.end, outcome.analysis.verdict, config.on_inconclusive);
  }
};

}  // namespace

TEST_CASE("an anytime stop on one regression does not claim that every metric settled", "[report]") {
  const AnytimeStop duel(12.5);
  REQUIRE(duel.outcome.end == DuelEnd::regression_found);
  REQUIRE(duel.outcome.analysis.metrics[1].verdict == Verdict::inconclusive);
  const auto table = format_table(duel.summary);
  const auto headline = util::split_lines(table).back();
  CHECK(headline ==
        "verdict: REGRESSION after 30 rounds in 12.500 s (fast regressed, settled by its confidence "
        "sequence; the "
        "other metrics cannot change the verdict); exit code 1");
  for (const auto& text : {table, format_markdown(duel.summary)}) {
    CHECK_THAT(text, !Catch::Contains("every gated"));
    CHECK_THAT(text, !Catch::Contains("reached its threshold"));
  }
}

TEST_CASE("durations round minutes and seconds together in the table, the Markdown and the SVG title",
          "[report]") {
  // 239.6 s was printed "3 min 60 s"; 299.7 s "4 min 60 s".
  for (const auto& [seconds, text] : {std::pair{239.6, "4 min 0 s"}, std::pair{299.7, "5 min 0 s"},
                                      std::pair{239.4, "3 min 59 s"}, std::pair{120.0, "2 min 0 s"}}) {
    const AnytimeStop duel(seconds);
    const std::string expected = fmt::format("after 30 rounds in {} (", text);
    CHECK_THAT(format_table(duel.summary), Catch::Contains(expected));
    CHECK_THAT(format_markdown(duel.summary), Catch::Contains(expected));
    CHECK_THAT(render_duel_svg(duel.config, duel.outcome),
               Catch::Contains(fmt::format("<title>perfduel: REGRESSION after 30 measured rounds in {} "
                                           "(regression-found)</title>",
                                           text)));
    for (const auto& output : {format_table(duel.summary), format_markdown(duel.summary),
                               render_duel_svg(duel.config, duel.outcome)}) {
      CHECK_THAT(output, !Catch::Contains(" 60 s"));
    }
  }
}
