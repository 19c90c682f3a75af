#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "bisect/git_bisect_codes.hpp"
#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "cli/report_output.hpp"
#include "config/config.hpp"
#include "duel/duel.hpp"
#include "duel/run_plan.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "machine/facts.hpp"
#include "machine/pinning.hpp"
#include "report/progress.hpp"
#include "run/process_executor.hpp"
#include "run/signals.hpp"
#include "run/valgrind.hpp"
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
  std::string order;  // empty: the configuration's
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

// Puts `text` (from --baseline or --candidate) into `slot`, keeping the config's working
// directory and environment for that side if it had any.
void set_command(std::optional<CommandSpec>& slot, const std::string& text, bool shell,
                 const std::string& option) {
  CommandSpec command = slot.value_or(CommandSpec{});
  if (shell) {
    command.launch = Launch::shell;
    command.argv = {text};
  } else {
    auto words = util::split_shell_words(text);
    if (!words) {
      throw Error(fmt::format("{}: {} in \"{}\"", option, words.error(), text));
    }
    command.launch = Launch::direct;
    command.argv = std::move(words).value();
  }
  if (command.argv.empty() || command.argv.front().empty()) {
    throw Error(fmt::format("{}: the command is empty", option));
  }
  slot = std::move(command);
}

// Fails before any run when a program cannot be started, naming where it came from.
void check_command(const std::optional<CommandSpec>& command, const std::string& side,
                   const std::string& origin) {
  if (!command) {
    throw Error(
        fmt::format("no {0} command: pass --{0} 'CMD ARGS...' or set \"{0}\" in the configuration", side));
  }
  std::error_code ec;
  if (!command->working_directory.empty() && !std::filesystem::is_directory(command->working_directory, ec)) {
    // Taken as written: no variable, "~" or glob is expanded in a path from the configuration.
    throw Error(fmt::format("{} ({}): working directory \"{}\" does not exist", side, origin,
                            command->working_directory.string()));
  }
  if (command->launch == Launch::shell) {
    return;
  }
  const auto resolved = resolve_program(command->argv.front(), command->working_directory);
  if (!resolved) {
    throw Error(fmt::format("{} ({}): {}", side, origin, resolved.error()));
  }
}

// Every requested CPU must be one this process may run on (`allowed`, its affinity), or the
// child's affinity call would fail on every run.
void check_cpus(const std::vector<int>& cpus, const std::vector<int>& allowed, const std::string& origin) {
  if (allowed.empty()) {
    return;  // unknown: the runs will tell
  }
  for (const int cpu : cpus) {
    if (std::find(allowed.begin(), allowed.end(), cpu) == allowed.end()) {
      throw Error(fmt::format("{}: CPU {} is not available to this process (usable: {})", origin, cpu,
                              format_cpu_list(allowed)));
    }
  }
}

// Applies --cpus to `config`: auto, none or a CPU list.
void apply_cpus_option(Config& config, const std::string& cpus_option) {
  if (cpus_option == "auto") {
    config.cpu_mode = CpuMode::automatic;
  } else if (cpus_option == "none") {
    config.cpu_mode = CpuMode::none;
  } else if (!cpus_option.empty()) {
    auto cpus = util::parse_cpu_list(cpus_option);
    if (!cpus) {
      throw Error(fmt::format("--cpus: {} (or auto, none)", cpus.error()));
    }
    config.cpu_mode = CpuMode::list;
    config.cpus = std::move(cpus).value();
  }
}

// The configuration file (or the defaults) with the command line's settings over it, the
// commands checked before anything runs. `origin` names where settings not from the command
// line came from.
Config compare_config(const CompareOptions& options, const std::string& origin) {
  Config config = options.config_path.empty() ? default_config() : load_config(options.config_path);
  if (!options.baseline.empty()) {
    set_command(config.baseline, options.baseline, options.shell, "--baseline");
  }
  if (!options.candidate.empty()) {
    set_command(config.candidate, options.candidate, options.shell, "--candidate");
  }
  check_command(config.baseline, "baseline", options.baseline.empty() ? origin : "--baseline");
  check_command(config.candidate, "candidate", options.candidate.empty() ? origin : "--candidate");
  if (!options.order.empty()) {
    config.order = *util::value_of(k_order_names, options.order);  // CLI11 checked the name
  }
  apply_cpus_option(config, options.cpus);
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

// Where the runs go: the CPUs of `config` (from `cpus_origin`) checked against this machine's
// `facts` and CTest's resource allocation, planned for the warm-up and the order; the warm-up's
// CPUs become the configuration's.
PinningPlan plan_compare_pinning(Config& config, const MachineFacts& facts, const std::string& cpus_origin) {
  if (config.cpu_mode == CpuMode::list) {
    check_cpus(config.cpus, facts.allowed_cpus, cpus_origin);
  }
  auto allocated = ctest_allocated_cpus([](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    return value == nullptr ? std::nullopt : std::optional<std::string>(value);
  });
  if (!allocated) {
    throw Error(allocated.error());
  }
  if (const char* required = std::getenv("PERFDUEL_REQUIRE_CTEST_CPUS"); required != nullptr && !*allocated) {
    // add_perf_gate(CPUS) with a resource spec file drops RUN_SERIAL: unpinned by CTest, this
    // gate could share its CPUs with another one running at the same time.
    throw Error(fmt::format(
        "this perf gate runs in parallel with others and needs {} CPU(s) from CTest, but CTest allocated "
        "none: run ctest with --resource-spec-file FILE (perfduel doctor --resource-spec FILE writes one), "
        "or unset PERFDUEL_RESOURCE_SPEC_FILE to run the gates one at a time",
        required));
  }
  if (*allocated && config.cpu_mode == CpuMode::automatic) {
    check_cpus(**allocated, facts.allowed_cpus, "CTest's resource allocation");
  }
  PinningPlan pinning_plan = plan_pinning(config.cpu_mode, config.cpus, cpus_origin, facts, *allocated);
  if (is_duet(config.order)) {
    auto duet = plan_duet_pinning(pinning_plan, facts);
    if (!duet) {
      throw Error(duet.error(), ExitCode::usage);
    }
    pinning_plan = std::move(duet).value();
  }
  config.cpus = pinning_plan.warmup.cpus;
  return pinning_plan;
}

// perfduel-exec when `config` needs it, else empty. A gated max RSS must be the programs' own:
// start the runs through perfduel-exec, whose small address space is what Linux counts as a
// run's starting max RSS (see exec_stub.cpp). Order duet needs it too: each stub holds its
// run at a barrier until both are started.
std::filesystem::path exec_stub_for(const Config& config) {
  const bool rss_gated = std::any_of(config.metrics.begin(), config.metrics.end(), [](const MetricSpec& m) {
    return m.source == MetricSource::max_rss && m.gating == Gating::gated;
  });
  if (!rss_gated && !is_duet(config.order)) {
    return {};
  }
  std::string searched;
  std::filesystem::path exec_stub = find_exec_stub(searched);
  if (exec_stub.empty()) {
    throw Error(fmt::format(
        "{}, which needs perfduel-exec; not found (looked for {})",
        rss_gated ? "max_rss is gated (the programs' own peak)" : "order: duet starts both runs together",
        searched));
  }
  return exec_stub;
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
  const MachineFacts facts = read_machine_facts();
  const PinningPlan pinning_plan =
      plan_compare_pinning(config, facts, options.cpus.empty() ? origin : "--cpus");

  // Hardware counters and valgrind are checked before anything runs.
  const std::filesystem::path valgrind = check_run_plan(config, plan_runs(config));

  RunSummary summary;
  summary.config = &config;
  summary.started = now_iso8601();
  summary.environment = environment_of(facts);

  install_interrupt_handlers();
  const std::filesystem::path exec_stub = exec_stub_for(config);
  ProcessExecutor executor(exec_stub);
  std::optional<ValgrindExecutor> simulator;
  if (!valgrind.empty()) {
    simulator.emplace(executor, valgrind, plan_runs(config).cache);
  }
  Progress progress(options.quiet ? ProgressStyle::quiet : detect_progress_style(stderr), stderr);
  bool settled = false;
  const auto outcome = run_duel_unless_identical(
      config, executor, simulator ? &*simulator : nullptr, *config.seed,
      [&](const Analysis& analysis, double elapsed) { progress.update(analysis, elapsed); },
      [&](double parallelism, int benchmark_threads) {
        summary.pinning = settle_pinning(pinning_plan, facts, parallelism, benchmark_threads);
        settled = true;
        return summary.pinning.cpus;
      });
  if (!settled) {  // the duel ended in its warm-up
    summary.pinning = pinning_plan.warmup;
    summary.pinning.parallelism = outcome.warmup_parallelism;
  }
  progress.finish();
  warn_about_duel(outcome, config);
  config.metrics = outcome.metrics;  // benchmark patterns expanded: the reports show what was measured
  // Through perfduel-exec the floor is the stub's, not ours: nothing to warn about.
  summary.environment.driver_peak_rss_bytes = exec_stub.empty() ? read_own_peak_rss() : 0.0;
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
