// `perfduel bisect`: finds the first commit between --good and --bad that made the benchmark
// worse by more than a cut, each probe judged by a duel (docs/bisect.md).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bisect/probe_config.hpp"
#include "bisect/probe_oracle.hpp"
#include "bisect/search.hpp"
#include "bisect/setup.hpp"
#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "report/bisect_json.hpp"
#include "report/bisect_report.hpp"
#include "run/process_executor.hpp"
#include "run/signals.hpp"
#include "util/json_file.hpp"
#include "util/text.hpp"

namespace perfduel::cli {

namespace {

using namespace perfduel::bisect;

// A fraction option ("5%" or 0.05) within (0, `most`); the error names the option. A bare
// number of 1 or more is refused: `--threshold 5` means 5 % to a person and 500 % to a parser.
double fraction_option(const std::string& text, const char* option, double most) {
  const auto value = util::parse_fraction(text);
  const bool bare = text.find('%') == std::string::npos;
  if (!value || !(*value > 0.0) || !(*value < most) || (bare && *value >= 1.0)) {
    throw Error(fmt::format("{} {}: expected a percentage above 0 and below {}, such as 5%", option, text,
                            util::format_percent(most).substr(1)));
  }
  return *value;
}

// Shows progress on stderr and keeps the JSON report of the search current after every step,
// so that an interrupted search leaves what it knew.
class Listener final : public SearchListener {
 public:
  Listener(const BisectContext& context, std::filesystem::path report, bool quiet,
           std::chrono::steady_clock::time_point started)
      : m_context(context), m_report(std::move(report)), m_quiet(quiet), m_started(started) {}

  void building(const SearchState& state, std::size_t index) override {
    say(format_building(m_context, state, index));
  }
  void built(const SearchState& state) override {
    say(format_built(m_context, state));
    save(state);
  }
  void dueling(const SearchState& state, const DuelRecord& duel) override {
    say(format_dueling(m_context, state, duel));
  }
  void dueled(const SearchState& state) override {
    say(format_dueled(m_context, state));
    save(state);
  }

  void save(const SearchState& state) const {
    util::write_json_file(m_report, bisect_to_json(m_context, state, elapsed()));
  }

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
  }

 private:
  void say(const std::string& text) const {
    if (!m_quiet && !text.empty()) {
      fmt::print(stderr, "{}", text);
      std::fflush(stderr);
    }
  }

  const BisectContext& m_context;
  std::filesystem::path m_report;
  bool m_quiet;
  std::chrono::steady_clock::time_point m_started;
};

// The failure of an endpoint as an error naming it.
std::string endpoint_failure(const BisectContext& context, const SearchState& state) {
  for (const auto& build : state.builds) {
    if (!build.reading.ok) {
      const bool good = build.index == 0;
      return fmt::format(
          "{} {} ({}) does not build: {} (log: {}); bisect needs both endpoints built: choose "
          "another {}",
          good ? "--good" : "--bad", good ? context.good_ref : context.bad_ref,
          short_id(context.chain.at(build.index).id), build.reading.reason, build.reading.log,
          good ? "--good" : "--bad");
    }
  }
  return fmt::format("the benchmark fails at an endpoint: {}; fix it or choose other endpoints",
                     state.failure);
}

// Runs the search and reports it: progress on stderr, the result on stdout, the JSON report
// in `search_dir` (and at --json). Returns bisect's exit code; an endpoint that fails or an
// interruption is thrown.
int search_and_report(const BisectContext& context, const BisectRequest& options, Oracle& oracle,
                      const std::filesystem::path& search_dir,
                      std::chrono::steady_clock::time_point started) {
  const std::filesystem::path report =
      options.json.empty() ? search_dir / "bisect.json" : std::filesystem::path(options.json);
  Listener listener(context, report, options.quiet, started);
  if (!options.quiet) {
    fmt::print(stderr, "{}", format_start(context));
  }
  const SearchState state = run_search(context.chain.size() - 1, oracle, listener);
  listener.save(state);
  if (!options.json.empty()) {
    util::write_json_file(search_dir / "bisect.json", bisect_to_json(context, state, listener.elapsed()));
  }
  if (state.outcome == Outcome::endpoint_failed) {
    throw Error(endpoint_failure(context, state), ExitCode::benchmark_failed);
  }
  fmt::print("{}report: {}\n", format_result(context, state, listener.elapsed()), report.string());
  std::fflush(stdout);
  if (state.outcome == Outcome::interrupted) {
    throw Error(
        fmt::format("interrupted by signal {}; the report so far is in {}, the worktrees and builds in {} "
                    "are kept: the same command resumes without building them again",
                    interrupt_signal(), report.string(), context.work_dir.string()),
        ExitCode::interrupted);
  }
  return bisect_exit_code(state.outcome);
}

int run_bisect(const BisectRequest& options) {
  const auto started_clock = std::chrono::steady_clock::now();
  if (options.gate.empty() && (options.build.empty() || options.run.empty())) {
    throw Error(
        "bisect needs what to build and run: --gate NAME (a gate of add_perf_gate, in its build "
        "directory), or --build CMD and --run CMD");
  }
  ProbeSettings settings;
  settings.search_confidence = fraction_option(options.confidence, "--confidence", 1.0);
  if (settings.search_confidence < 0.5) {
    throw Error(fmt::format("--confidence {}: expected at least 50 %, such as 95%", options.confidence));
  }
  if (!options.threshold.empty()) {
    settings.cut = fraction_option(options.threshold, "--threshold", 10.0);
  }

  ProcessExecutor executor;
  install_interrupt_handlers();
  const PreparedSearch search = prepare_search(options, settings, executor);
  ProbeOracle oracle(executor, *search.builder, search.context.chain, search.plan);
  return search_and_report(search.context, options, oracle, search.search_dir, started_clock);
}

}  // namespace

void add_bisect_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<BisectRequest>(subcommand, exit_code, run_bisect);
  command->add_option("--good", options->good, "a commit (tag, branch) where the benchmark was fine")
      ->required();
  command->add_option("--bad", options->bad, "a later commit where it is worse")->required();
  auto* gate = command->add_option(
      "--gate", options->gate, "the add_perf_gate NAME: its target, arguments, config and build settings");
  command
      ->add_option("--build-dir", options->build_dir, "the gate's build directory (default: the current one)")
      ->needs(gate);
  command
      ->add_option("-C,--build-config", options->build_config,
                   "the configuration to build with a multi-config generator (e.g. Release)")
      ->needs(gate);
  auto* build =
      command->add_option("--build", options->build,
                          "without --gate: shell command that builds the commit in its worktree {dir} "
                          "({commit}: its id); runs in {dir}");
  auto* run = command->add_option("--run", options->run,
                                  "without --gate: the benchmark of a built commit, split into words like "
                                  "compare's --baseline; {dir} and {commit} as for --build");
  auto* shell = command->add_flag("--shell", options->shell, "run --run through /bin/sh -c");
  auto* source =
      command->add_option("--source", options->source,
                          "without --gate: a directory in the git repository (default: the current one)");
  for (auto* option : {build, run, shell, source}) {
    option->excludes(gate);
  }
  build->needs(run);
  run->needs(build);
  command
      ->add_option("-c,--config", options->config,
                   "the duels' configuration (default: the gate's CONFIG, else wall time gated at 2 %)")
      ->check(CLI::ExistingFile);
  command->add_option(
      "--threshold", options->threshold,
      "the cut: a commit is bad when a gated metric is worse than at --good by more than this "
      "(default: each gated metric's threshold)");
  command
      ->add_option("--confidence", options->confidence,
                   "of the whole search: every duel gets 1 - (1 - this) / planned duels")
      ->capture_default_str();
  command
      ->add_option("--max-seconds", options->max_seconds,
                   "each duel's budget (a second attempt gets 3 times it)")
      ->check(CLI::PositiveNumber);
  command->add_option("--build-timeout", options->build_timeout, "seconds a commit's build may take")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--work-dir", options->work_dir,
                      "worktrees, builds and reports (default: <build>/perfduel/bisect with --gate, else "
                      "<git dir>/perfduel-bisect)");
  command->add_option("--json", options->json,
                      "the report of the whole search (also kept in the work directory)");
  command->add_option("--cpus", options->cpus, "pin the duels' runs to these CPUs (as for compare)");
  command->add_option("--seed", options->seed, "seed of the first duel's run order; each next duel adds 1");
  command->add_flag("-q,--quiet", options->quiet, "no progress lines");
  command->footer(exit_codes_help(k_bisect_exit_code_table));
}

}  // namespace perfduel::cli
