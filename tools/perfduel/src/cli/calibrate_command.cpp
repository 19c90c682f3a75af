#include <algorithm>
#include <optional>
#include <random>
#include <utility>

#include <fmt/format.h>

#include "calibrate/calibration_inputs.hpp"
#include "cli/bind_command.hpp"
#include "cli/command_text.hpp"
#include "cli/commands.hpp"
#include "cli/history_options.hpp"
#include "duel/calibration.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "report/calibration_report.hpp"
#include "report/progress.hpp"
#include "util/file.hpp"
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

// The A/A duel of --command (or the configuration's candidate) against itself.
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
  Progress progress(options.quiet ? ProgressStyle::quiet : detect_progress_style(stderr), stderr);
  CalibrationInput input = measure_against_itself(
      std::move(config), options.rounds, options.cpus.empty() ? origin : "--cpus",
      [&](const Analysis& analysis, double elapsed) { progress.update(analysis, elapsed); });
  progress.finish();
  return input;
}

// The rounds of --from-report, with --config's budget and thresholds when given.
CalibrationInput read_reports(const CalibrateOptions& options) {
  if (!options.command.empty()) {
    throw Error("--from-report takes the reports' runs: leave out --command");
  }
  return read_report_inputs(options.reports, options.config_path.empty()
                                                 ? std::nullopt
                                                 : std::optional<Config>(load_config(options.config_path)));
}

// The gate's records in the history of --db.
CalibrationInput read_history(const CalibrateOptions& options) {
  if (options.config_path.empty() || !options.command.empty() || !options.reports.empty()) {
    throw Error(
        "--db reads the gate's records in the history: give the gate's --config, and leave out --command "
        "and --from-report");
  }
  return read_history_inputs(load_config(options.config_path), options.config_path,
                             {options.db, options.branch, options.last, options.seconds_per_round});
}

int run_calibrate(const CalibrateOptions& options) {
  const CalibrationInput input = options.db                ? read_history(options)
                                 : options.reports.empty() ? run_aa_duel(options)
                                                           : read_reports(options);
  const Calibration calibration = calibrate_input(input);
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
  command
      ->add_option("-c,--config", options->config_path,
                   "the gate's YAML configuration (metrics, budget); with --from-report, its budget and "
                   "thresholds instead of the reports' own")
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
      "that override the pattern.\n\n" +
      exit_codes_help(k_calibrate_exit_code_table));
}

}  // namespace perfduel::cli
