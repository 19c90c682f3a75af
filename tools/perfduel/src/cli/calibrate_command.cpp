#include <algorithm>
#include <optional>
#include <random>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/bind_command.hpp"
#include "cli/command_text.hpp"
#include "cli/commands.hpp"
#include "cli/history_options.hpp"
#include "duel/calibration.hpp"
#include "duel/local_duel.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "history/store.hpp"
#include "report/calibration_report.hpp"
#include "report/json_report.hpp"
#include "report/progress.hpp"
#include "util/file.hpp"
#include "util/glob.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel::cli {

namespace {

struct CalibrateOptions {
  std::string config_path;
  std::string command;
  bool shell = false;
  int rounds = 30;
  std::vector<std::string> reports;
  std::optional<std::string> db;  // --db: the history's records instead of runs
  std::optional<std::string> branch;
  int last = 20;
  double seconds_per_round = 0;
  std::string out;
  std::optional<std::uint64_t> seed;
  std::string cpus;
  bool quiet = false;
};

// The runs calibration measures noise from, and what they are.
struct CalibrationInput {
  Config config;  // the user's settings, benchmark patterns expanded
  std::vector<RunRecord> runs;
  // Instead of runs: each metric's stand-ins for one round's log-ratios (the history's samples).
  std::optional<std::vector<std::vector<double>>> ratios;
  double seconds_per_round = 0;
  std::string source;  // "30 rounds of ./bench against itself"
};

// An A/A duel of --command: the same program on both sides, measured even when its fingerprints
// are equal (that shortcut would measure nothing), for exactly --rounds rounds: the width rule
// alone, which cannot settle before min_rounds, with min_rounds = max_rounds = --rounds.
CalibrationInput run_aa_duel(const CalibrateOptions& options) {
  const std::string origin = options.config_path.empty() ? "command line" : options.config_path;
  Config config = options.config_path.empty() ? default_config() : load_config(options.config_path);
  if (!options.command.empty()) {
    set_command_text(config.candidate, options.command, options.shell, "--command");
  } else if (!config.candidate) {
    throw Error(
        "calibrate needs what to run: --command 'PROGRAM ARGS', \"candidate\" in the configuration, or "
        "--from-report REPORT.json");
  }
  config.baseline = config.candidate;
  check_command_runs(config.candidate, "command", options.command.empty() ? origin : "--command");
  apply_cpus_text(config, options.cpus);
  config.seed = options.seed.value_or((static_cast<std::uint64_t>(std::random_device{}()) << 32U) |
                                      std::random_device{}());
  Config aa = config;
  aa.identical_programs = IdenticalPrograms::measure;
  aa.stopping = Stopping::width;
  aa.max_rounds = std::min(options.rounds, config.max_rounds);
  aa.min_rounds = aa.max_rounds;
  // The rounds asked for, not the gate's time budget: that is what is being calibrated for.
  aa.max_seconds = std::max(config.max_seconds, 1e9);
  Progress progress(options.quiet ? ProgressStyle::quiet : detect_progress_style(stderr), stderr);
  const LocalDuel duel = run_local_duel(
      aa, options.cpus.empty() ? origin : "--cpus",
      [&](const Analysis& analysis, double elapsed) { progress.update(analysis, elapsed); }, {});
  progress.finish();
  const DuelOutcome& outcome = duel.outcome;
  if (outcome.end == DuelEnd::benchmark_failed || outcome.end == DuelEnd::interrupted) {
    throw Error(outcome.failure.empty() ? "interrupted" : outcome.failure,
                outcome.end == DuelEnd::interrupted ? ExitCode::interrupted : outcome.failure_code);
  }
  CalibrationInput input;
  config.metrics = outcome.metrics;
  input.config = std::move(config);
  input.runs = outcome.runs;
  const int rounds = outcome.analysis.measured_rounds;
  input.seconds_per_round = outcome.elapsed_seconds / std::max(rounds + input.config.warmup, 1);
  input.source = fmt::format("{} of {} against itself", util::counted(rounds, "round"),
                             util::join_shell_words(input.config.candidate->argv));
  return input;
}

// The runs of saved reports, one after the other (rounds renumbered), with the first report's
// configuration: its metrics must be in every report.
CalibrationInput read_reports(const CalibrateOptions& options) {
  if (!options.config_path.empty() || !options.command.empty()) {
    throw Error(
        "--from-report takes the reports' own configuration and runs: leave out --config and --command");
  }
  CalibrationInput input;
  double seconds = 0;
  int rounds_played = 0;
  int measured = 0;
  for (std::size_t i = 0; i < options.reports.size(); ++i) {
    const std::string& path = options.reports[i];
    SavedReport report = load_report(path);
    if (i == 0) {
      input.config = report.config;
    } else {
      const auto names = [](const Config& c) {
        std::vector<std::string> list;
        list.reserve(c.metrics.size());
        for (const auto& m : c.metrics) {
          list.push_back(m.name);
        }
        return list;
      };
      if (names(report.config) != names(input.config)) {
        throw Error(fmt::format("{}: its metrics are not those of {}: calibrate reports of one gate together",
                                path, options.reports.front()));
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
  input.seconds_per_round = rounds_played > 0 ? seconds / rounds_played : 0.0;
  input.source = fmt::format("{} of {}", util::counted(measured, "round"),
                             options.reports.size() == 1
                                 ? options.reports.front()
                                 : util::counted(static_cast<long long>(options.reports.size()), "report"));
  return input;
}

// The metrics of `config` as the history names them: a benchmark pattern's entry stands for each
// recorded "<key>/<benchmark>" it matches (unless an entry of that name overrides it).
std::vector<MetricSpec> recorded_metrics(const Config& config, const std::vector<std::string>& recorded) {
  std::vector<MetricSpec> metrics;
  const auto configured = [&](const std::string& name) {
    return std::any_of(config.metrics.begin(), config.metrics.end(),
                       [&](const MetricSpec& m) { return m.name == name; });
  };
  for (const MetricSpec& spec : config.metrics) {
    if (!is_benchmark_pattern(spec)) {
      metrics.push_back(spec);
      continue;
    }
    const std::string prefix = spec.name + "/";
    for (const std::string& name : recorded) {
      const std::string benchmark = name.starts_with(prefix) ? name.substr(prefix.size()) : "";
      if (!benchmark.empty() && util::glob_match(spec.benchmark, benchmark) && !configured(name)) {
        MetricSpec one = spec;
        one.name = name;
        one.benchmark = benchmark;
        metrics.push_back(std::move(one));
      }
    }
  }
  return metrics;
}

// The noise of the gate's metrics from the history: per gated metric, the candidate's samples of
// its last --last records that hold at least 3 (paired_sample_differences).
CalibrationInput read_history(const CalibrateOptions& options) {
  if (options.config_path.empty() || !options.command.empty() || !options.reports.empty()) {
    throw Error(
        "--db reads the gate's records in the history: give the gate's --config, and leave out --command "
        "and --from-report");
  }
  auto opened = history::open_history_store(history::history_location(options.db), history::CreateFile::no);
  if (!opened) {
    throw Error(opened.error());
  }
  history::HistoryStore& store = **opened;
  auto recorded = store.metrics(options.branch);
  if (!recorded) {
    throw Error(recorded.error());
  }
  CalibrationInput input;
  input.config = load_config(options.config_path);
  input.config.metrics = recorded_metrics(input.config, *recorded);
  input.seconds_per_round = options.seconds_per_round;
  std::vector<std::vector<double>> ratios(input.config.metrics.size());
  std::size_t used = 0;
  for (std::size_t m = 0; m < input.config.metrics.size(); ++m) {
    const MetricSpec& spec = input.config.metrics[m];
    if (spec.gating != Gating::gated ||
        std::find(recorded->begin(), recorded->end(), spec.name) == recorded->end()) {
      continue;
    }
    auto points = store.series(spec.name, options.branch);
    if (!points) {
      throw Error(points.error());
    }
    std::vector<std::vector<double>> duels;
    for (auto point = points->rbegin(); point != points->rend() && std::cmp_less(duels.size(), options.last);
         ++point) {
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
                    options.branch ? fmt::format(" of branch {}", *options.branch) : "", options.config_path,
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
                             options.branch ? fmt::format(" (branch {})", *options.branch) : "");
  return input;
}

int run_calibrate(const CalibrateOptions& options) {
  const CalibrationInput input = options.db                ? read_history(options)
                                 : options.reports.empty() ? run_aa_duel(options)
                                                           : read_reports(options);
  const Calibration calibration = input.ratios
                                      ? calibrate_ratios(input.config, *input.ratios, input.seconds_per_round)
                                      : calibrate(input.config, input.runs, input.seconds_per_round);
  if (calibration.rounds < 3) {
    throw Error(fmt::format("{}: too few rounds to measure noise (at least 3, better 30)", input.source));
  }
  fmt::print("{}", format_calibration(calibration, input.source));
  const std::string fragment = format_calibration_fragment(calibration, input.source);
  if (options.out.empty()) {
    fmt::print("\n{}", fragment);
  } else {
    if (const auto error = util::write_file_atomically(options.out, fragment); !error.empty()) {
      throw Error(fmt::format("--out: cannot write {}: {}", options.out, error));
    }
    fmt::print("fragment: {} (paste under \"metrics:\")\n", options.out);
  }
  return to_int(ExitCode::pass);
}

}  // namespace

void add_calibrate_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<CalibrateOptions>(subcommand, exit_code, run_calibrate);
  command->add_option("-c,--config", options->config_path, "the gate's YAML configuration (metrics, budget)")
      ->check(CLI::ExistingFile);
  command->add_option("-n,--command", options->command,
                      "the program to measure against itself, split into words like a shell does "
                      "(default: the configuration's candidate)");
  command->add_flag("--shell", options->shell, "run --command through /bin/sh -c");
  command->add_option("--rounds", options->rounds, "rounds of the A/A duel (default 30)")
      ->check(CLI::Range(3, 100000));
  command
      ->add_option("--from-report", options->reports,
                   "measure the noise from the rounds of these compare --json reports instead of running")
      ->check(CLI::ExistingFile);
  auto* db = add_database_option(*command, options->db);
  db->description(
      "measure the noise from the gate's records in this history database (SQLite file or PostgreSQL URI) "
      "instead of running: their candidate runs, side by side");
  command->add_option("--branch", options->branch, "with --db: only records of this branch")->needs(db);
  command
      ->add_option("--last", options->last,
                   "with --db: the last N records with runs of each metric (default 20)")
      ->check(CLI::Range(1, 100000))
      ->needs(db);
  command
      ->add_option(
          "--seconds-per-round", options->seconds_per_round,
          "with --db: a round's time, so that max_seconds counts in the budget (default: max_rounds alone)")
      ->check(CLI::PositiveNumber)
      ->needs(db);
  command->add_option("-o,--out", options->out, "write the YAML fragment here (default: after the table)");
  command->add_option("--seed", options->seed, "seed of the random run order");
  command->add_option("--cpus", options->cpus, "pin runs to these CPUs, auto or none, as for compare");
  command->add_flag("-q,--quiet", options->quiet, "no progress line");
  command->footer(
      "Measures each gated metric's noise per round (the program against itself, or the rounds of saved "
      "reports) and writes thresholds the configured budget can settle: per benchmark of a pattern, entries "
      "that override the pattern. Exit codes: 0 done, 2 usage or configuration error, 3 a run failed.");
}

}  // namespace perfduel::cli
