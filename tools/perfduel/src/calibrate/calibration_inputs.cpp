#include "calibrate/calibration_inputs.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "duel/calibration.hpp"
#include "duel/local_duel.hpp"
#include "duel/metric_expansion.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "history/store.hpp"
#include "report_format/saved_report.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

std::vector<std::string> metric_names(const Config& config) {
  std::vector<std::string> names;
  names.reserve(config.metrics.size());
  for (const auto& metric : config.metrics) {
    names.push_back(metric.name);
  }
  return names;
}

// The configuration of a report, `report`, recalibrated for another one, `gate`: the gate's
// budget, levels and settings, over the report's metrics (whose order its runs' values follow),
// each replaced by the gate's metric of its name once the gate's benchmark patterns are expanded
// over the report's metric names as over the history's (expand_recorded_patterns); a metric the
// gate does not name keeps the report's settings.
Config with_gate(const Config& report, const Config& gate) {
  auto expanded = expand_recorded_patterns(gate.metrics, metric_names(report));
  if (!expanded) {
    throw Error(fmt::format("--config: {}", expanded.error()));
  }
  Config config = gate;
  config.metrics = report.metrics;
  for (MetricSpec& metric : config.metrics) {
    const auto same = std::find_if(expanded->begin(), expanded->end(),
                                   [&](const MetricSpec& m) { return m.name == metric.name; });
    if (same != expanded->end()) {
      metric = *same;
    }
  }
  return config;
}

}  // namespace

CalibrationInput measure_against_itself(Config config, int rounds, const std::string& cpus_origin,
                                        const ProgressCallback& progress) {
  Config aa = config;
  aa.identical_programs = IdenticalPrograms::measure;
  aa.stopping = Stopping::width;
  aa.max_rounds = std::min(rounds, config.max_rounds);
  aa.min_rounds = aa.max_rounds;
  // The rounds asked for, not the gate's time budget: that is what is being calibrated for.
  aa.max_seconds = std::max(config.max_seconds, 1e9);
  const LocalDuel duel = run_local_duel(aa, cpus_origin, progress, {});
  const DuelOutcome& outcome = duel.outcome;
  if (outcome.end == DuelEnd::benchmark_failed || outcome.end == DuelEnd::interrupted) {
    throw Error(outcome.failure.empty() ? "interrupted" : outcome.failure,
                outcome.end == DuelEnd::interrupted ? ExitCode::interrupted : outcome.failure_code);
  }
  CalibrationInput input;
  config.metrics = outcome.metrics;
  input.config = std::move(config);
  input.runs = outcome.runs;
  const int measured = outcome.analysis.measured_rounds;
  input.seconds_per_round = outcome.elapsed_seconds / std::max(measured + input.config.warmup, 1);
  input.source = fmt::format("{} of {} against itself", util::counted(measured, "round"),
                             util::join_shell_words(input.config.candidate->argv));
  return input;
}

CalibrationInput read_report_inputs(const std::vector<std::string>& paths,
                                    const std::optional<Config>& gate) {
  CalibrationInput input;
  double seconds = 0;
  int rounds_played = 0;
  int measured = 0;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    SavedReport report = load_report_strict(path);
    if (i == 0) {
      input.config = report.config;
    } else {
      if (metric_names(report.config) != metric_names(input.config)) {
        throw Error(fmt::format("{}: its metrics are not those of {}: calibrate reports of one gate together",
                                path, paths.front()));
      }
    }
    int last = -1;
    for (RunRecord run : report.runs) {
      last = std::max(last, run.round);
      if (!run.warmup) {
        run.round += rounds_played;
        input.runs.push_back(std::move(run));
      }
    }
    const auto series = measured_log_ratios(report.config, report.runs);
    measured += series.empty()
                    ? 0
                    : static_cast<int>(
                          std::max_element(series.begin(), series.end(), [](const auto& a, const auto& b) {
                            return a.size() < b.size();
                          })->size());
    rounds_played += last + 1;
    seconds += report.elapsed_seconds;
  }
  input.own_entries_known = gate.has_value();
  if (gate) {
    input.config = with_gate(input.config, *gate);
  }
  input.seconds_per_round = rounds_played > 0 ? seconds / rounds_played : 0.0;
  input.source = fmt::format(
      "{} of {}", util::counted(measured, "round"),
      paths.size() == 1 ? paths.front() : util::counted(static_cast<long long>(paths.size()), "report"));
  return input;
}

CalibrationInput read_history_inputs(const Config& gate, const std::string& gate_path,
                                     const HistorySelection& selection) {
  auto opened = history::open_history_store(history::history_location(selection.db), history::CreateFile::no);
  if (!opened) {
    throw Error(opened.error());
  }
  history::HistoryStore& store = **opened;
  auto recorded = store.metrics(selection.branch);
  if (!recorded) {
    throw Error(recorded.error());
  }
  CalibrationInput input;
  input.config = gate;
  auto metrics = expand_recorded_patterns(gate.metrics, *recorded);
  if (!metrics) {
    throw Error(fmt::format("{}: {}", gate_path, metrics.error()));
  }
  input.config.metrics = std::move(metrics).value();
  input.seconds_per_round = selection.seconds_per_round;
  std::vector<std::vector<double>> ratios(input.config.metrics.size());
  std::size_t used = 0;
  for (std::size_t m = 0; m < input.config.metrics.size(); ++m) {
    const MetricSpec& spec = input.config.metrics[m];
    if (spec.gating != Gating::gated ||
        std::find(recorded->begin(), recorded->end(), spec.name) == recorded->end()) {
      continue;
    }
    auto points = store.series(spec.name, selection.branch);
    if (!points) {
      throw Error(points.error());
    }
    std::vector<std::vector<double>> duels;
    for (auto point = points->rbegin();
         point != points->rend() && std::cmp_less(duels.size(), selection.last); ++point) {
      if (point->measurement.samples.size() >= 3) {
        duels.push_back(point->measurement.samples);
      }
    }
    used = std::max(used, duels.size());
    ratios[m] = paired_sample_differences(duels);
  }
  if (used == 0) {
    throw Error(
        fmt::format("{}: no record{} holds runs of a gated metric of {} (recorded: {})", store.display_name(),
                    selection.branch ? fmt::format(" of branch {}", *selection.branch) : "", gate_path,
                    recorded->empty() ? "nothing" : fmt::format("{}", fmt::join(*recorded, ", "))));
  }
  input.ratios = std::move(ratios);
  std::size_t pairs = 0;
  for (const auto& series : *input.ratios) {
    pairs = std::max(pairs, series.size());
  }
  input.source = fmt::format("{} of the candidate's runs in the last {} in {}{}",
                             util::counted(static_cast<long long>(pairs), "pair"),
                             util::counted(static_cast<long long>(used), "record"), store.display_name(),
                             selection.branch ? fmt::format(" (branch {})", *selection.branch) : "");
  return input;
}

Calibration calibrate_input(const CalibrationInput& input) {
  Calibration calibration = input.ratios
                                ? calibrate_ratios(input.config, *input.ratios, input.seconds_per_round)
                                : calibrate(input.config, input.runs, input.seconds_per_round);
  if (!input.own_entries_known) {
    for (auto& metric : calibration.metrics) {
      metric.own_entry = false;
    }
  }
  return calibration;
}

}  // namespace perfduel
