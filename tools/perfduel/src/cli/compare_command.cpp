#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "bisect/git_bisect_codes.hpp"
#include "cli/bind_command.hpp"
#include "cli/command_text.hpp"
#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "config/config.hpp"
#include "config/names.hpp"
#include "count/valgrind.hpp"
#include "duel/duel.hpp"
#include "duel/local_duel.hpp"
#include "duel/run_plan.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "machine/facts.hpp"
#include "machine/pinning.hpp"
#include "report/progress.hpp"
#include "run/process_executor.hpp"
#include "run/signals.hpp"
#include "util/file.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel::cli {

namespace {

struct CompareOptions {
  std::string config_path;
  std::string baseline;
  std::string candidate;
  std::optional<std::uint64_t> seed;
  std::optional<double> max_seconds;
  std::string cpus;
  std::string order;    // empty: the configuration's
  std::string explain;  // empty: the configuration's
  std::string skip_if;
  bool shell = false;
  bool quiet = false;
  std::string exit_codes = "perfduel";  // or "git-bisect" (bisect/git_bisect_codes.hpp)
  ReportOutputs outputs;
};

// --skip-if: a build system that knows there is nothing to compare against (add_perf_gate
// writes the file when the baseline commit has no such benchmark) makes the duel a skip, with
// the file's text as the reason. The reports then describe this skip, not an earlier duel
// (the Markdown says why; an earlier JSON report or plot is removed).
int skip_duel(const std::string& marker, const ReportOutputs& outputs) {
  const auto text = util::read_file(marker);
  std::string reason = text ? text->substr(0, text->find('\n')) : std::string();
  if (reason.empty()) {
    reason = fmt::format("{} exists", marker);
  }
  fmt::print(stderr, "perfduel: skipped: {}\n", reason);
  std::error_code ignored;
  for (const std::string* stale : {&outputs.json, &outputs.svg}) {
    if (!stale->empty()) {
      std::filesystem::remove(*stale, ignored);
    }
  }
  if (!outputs.markdown.empty() &&
      !util::write_file_atomically(outputs.markdown, "### perfduel: skipped\n\n" + reason + "\n").empty()) {
    throw Error(fmt::format("--markdown: cannot write {}", outputs.markdown));
  }
  return to_int(ExitCode::inconclusive);
}

// The configuration file (or the defaults) with the command line's settings over it, the
// commands checked before anything runs. `origin` names where settings not from the command
// line came from.
Config compare_config(const CompareOptions& options, const std::string& origin) {
  Config config = options.config_path.empty() ? default_config() : load_config(options.config_path);
  if (!options.baseline.empty()) {
    set_command_text(config.baseline, options.baseline, options.shell, "--baseline");
  }
  if (!options.candidate.empty()) {
    set_command_text(config.candidate, options.candidate, options.shell, "--candidate");
  }
  check_command_runs(config.baseline, "baseline", options.baseline.empty() ? origin : "--baseline");
  check_command_runs(config.candidate, "candidate", options.candidate.empty() ? origin : "--candidate");
  if (!options.order.empty()) {
    config.order = *util::value_of(k_order_names, options.order);  // CLI11 checked the name
  }
  if (!options.explain.empty()) {
    config.explain = *util::value_of(config::k_explain_names, options.explain);  // CLI11 checked the name
  }
  apply_cpus_text(config, options.cpus);
  if (options.max_seconds) {
    config.max_seconds = std::min(config.max_seconds, *options.max_seconds);
  }
  if (options.seed) {
    config.seed = options.seed;
  }
  if (!config.seed) {
    config.seed = (static_cast<std::uint64_t>(std::random_device{}()) << 32U) | std::random_device{}();
  }
  return config;
}

// The warnings of a duel that ended: rounds played again, processes left running.
void warn_about_duel(const DuelOutcome& outcome, const Config& config) {
  for (std::size_t i = 0; i < outcome.retried.size(); ++i) {
    fmt::print(stderr, "perfduel: warning: retry {} of {}: {}; the round was played again\n", i + 1,
               config.retries, outcome.retried[i]);
  }
  if (outcome.left_behind > 0) {
    fmt::print(stderr,
               "perfduel: warning: {} left a process running after it ended; killed ({} such process(es) "
               "in all)\n",
               outcome.left_behind_first, outcome.left_behind);
  }
}

int run_compare(const CompareOptions& options) {
  if (!options.skip_if.empty() && std::filesystem::exists(options.skip_if)) {
    return skip_duel(options.skip_if, options.outputs);
  }
  check_output_paths(options.outputs);
  const std::string origin = options.config_path.empty() ? "command line" : options.config_path;
  Config config = compare_config(options, origin);
  RunSummary summary;
  summary.config = &config;
  summary.started = now_iso8601();
  Progress progress(options.quiet ? ProgressStyle::quiet : detect_progress_style(stderr), stderr);
  const LocalDuel duel = run_local_duel(
      config, options.cpus.empty() ? origin : "--cpus",
      [&](const Analysis& analysis, double elapsed) { progress.update(analysis, elapsed); },
      [&](const Note& note) { progress.note(note.text); });
  const DuelOutcome& outcome = duel.outcome;
  summary.environment = environment_of(duel.facts);
  summary.pinning = duel.pinning;
  progress.finish();
  warn_about_duel(outcome, config);
  config.metrics = outcome.metrics;  // benchmark patterns expanded: the reports show what was measured
  // Through perfduel-exec the floor is the stub's, not ours: nothing to warn about.
  summary.environment.driver_peak_rss_bytes = duel.exec_stub ? 0.0 : read_own_peak_rss();
  summary.outcome = &outcome;
  summary.exit_code = outcome.end == DuelEnd::benchmark_failed
                          ? outcome.failure_code
                          : exit_code_for(outcome.end, outcome.analysis.verdict, config.on_inconclusive);
  write_outputs(summary, options.outputs);
  if (outcome.end == DuelEnd::benchmark_failed) {
    throw Error(outcome.failure, outcome.failure_code);
  }
  if (outcome.end == DuelEnd::interrupted) {
    throw Error(
        fmt::format(
            "interrupted by signal {}; children killed{}", interrupt_signal(),
            options.outputs.json.empty() ? "" : ", partial report written to " + options.outputs.json),
        ExitCode::interrupted);
  }
  return to_int(summary.exit_code);
}

// run_compare with the exit codes --exit-codes asks for, thrown ones included.
int run_compare_command(const CompareOptions& options) {
  if (options.exit_codes != "git-bisect") {
    return run_compare(options);
  }
  try {
    return to_int(bisect::git_bisect_exit_code(static_cast<ExitCode>(run_compare(options))));
  } catch (const Error& e) {
    throw Error(e.what(), bisect::git_bisect_exit_code(e.exit_code()));
  }
}

}  // namespace

void add_compare_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<CompareOptions>(subcommand, exit_code, run_compare_command);
  command->add_option("-c,--config", options->config_path, "YAML configuration (thresholds, metrics, budget)")
      ->check(CLI::ExistingFile);
  command->add_option("-b,--baseline", options->baseline,
                      "baseline command, split into words like a shell does");
  command->add_option("-n,--candidate", options->candidate,
                      "candidate command, split into words like a shell does");
  command->add_flag("--shell", options->shell, "run --baseline and --candidate through /bin/sh -c");
  command->add_option("--seed", options->seed, "seed of the random run order (default: drawn and reported)");
  command
      ->add_option("--max-seconds", options->max_seconds, "cap the time budget (seconds) below the config's")
      ->check(CLI::PositiveNumber);
  command->add_option(
      "--cpus", options->cpus,
      "pin runs to these CPUs, e.g. 1 or 2-3; auto (the default: CTest's allocation, else "
      "isolated CPUs, else CPUs away from CPU 0, one per core) or none (overrides the config)");
  command
      ->add_option("--order", options->order,
                   "order of the two runs of a round (overrides the config): random, abba, duet (both at "
                   "once on two CPUs) or duet-fixed")
      ->check(CLI::IsMember([] {
        std::vector<std::string> names;
        for (const auto& [order, name] : k_order_names) {
          names.emplace_back(name);
        }
        return names;
      }()));
  command
      ->add_option("--explain", options->explain,
                   "profile a regressed timed metric by one counted run a side (overrides the config): "
                   "failures, always or off")
      ->check(CLI::IsMember({"failures", "always", "off"}));
  command->add_flag("-q,--quiet", options->quiet, "no progress line");
  command->add_option("--skip-if", options->skip_if,
                      "if FILE exists, run nothing and exit 77 (skipped), its first line as the reason");
  add_output_options(*command, options->outputs);
  command
      ->add_option("--exit-codes", options->exit_codes,
                   "perfduel (default), or git-bisect for `git bisect run`: 0 good, 1 bad, 125 skip "
                   "(inconclusive, benchmark failed), 128 abort (usage error), 130 interrupted")
      ->check(CLI::IsMember({"perfduel", "git-bisect"}));
  command->footer(fmt::format("Exit codes: {}.", exit_code_names()));
}

}  // namespace perfduel::cli
