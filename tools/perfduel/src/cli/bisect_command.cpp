// `perfduel bisect`: finds the first commit between --good and --bad that made the benchmark
// worse by more than a cut, each probe judged by a duel (docs/bisect.md).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "bisect/commit_builder.hpp"
#include "bisect/commit_chain.hpp"
#include "bisect/gate_file.hpp"
#include "bisect/probe_config.hpp"
#include "bisect/probe_oracle.hpp"
#include "bisect/search.hpp"
#include "cli/bind_command.hpp"
#include "cli/commands.hpp"
#include "config/config.hpp"
#include "error.hpp"
#include "exit_codes.hpp"
#include "report/bisect_report.hpp"
#include "report/json_report.hpp"
#include "run/process_executor.hpp"
#include "run/signals.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel::cli {

namespace {

using namespace perfduel::bisect;

struct BisectOptions {
  std::string good;
  std::string bad;
  std::string gate;
  std::string build_dir;
  std::string build_config;
  std::string build;
  std::string run;
  bool shell = false;
  std::string source;
  std::string config;
  std::string threshold;
  std::string confidence = "95%";
  std::optional<double> max_seconds;
  double build_timeout = 3600;
  std::string work_dir;
  std::string json;
  std::string cpus;
  std::optional<std::uint64_t> seed;
  bool quiet = false;
};

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

std::filesystem::path absolute_or_current(const std::string& path) {
  return std::filesystem::absolute(path.empty() ? std::filesystem::current_path()
                                                : std::filesystem::path(path))
      .lexically_normal();
}

// A directory name for this search's reports: its start time and process id.
std::string search_name(const std::string& started) {
  std::string name;
  for (const char c : started) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0 || c == 'T') {
      name += c == 'T' ? '-' : c;
    }
  }
  return fmt::format("{}-{}", name, ::getpid());
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
    write_json_file(m_report, bisect_to_json(m_context, state, elapsed()));
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

// What a search bisects: the gate's or the --build/--run commands, and where they run.
struct Target {
  std::optional<GateFile> gate;
  std::filesystem::path repository;
  std::string git_program = "git";
  std::filesystem::path work_dir;  // empty until known: for --build, from git
  std::string again;               // the command that bisects again with other endpoints
};

// The target of --gate: the gate file in its build directory says what and where.
Target gate_target(const BisectOptions& options) {
  Target target;
  const std::filesystem::path build_dir = absolute_or_current(options.build_dir);
  target.gate = read_gate_file(build_dir, options.gate);
  if (is_multi_config(target.gate->generator) && options.build_config.empty()) {
    throw Error(
        fmt::format("gate {}: the build uses the multi-config generator {}; give the configuration to "
                    "build, e.g. --build-config Release",
                    options.gate, target.gate->generator));
  }
  target.repository = target.gate->source_dir;
  if (!target.gate->git.empty() && std::filesystem::exists(target.gate->git)) {
    target.git_program = target.gate->git;
  }
  target.work_dir =
      options.work_dir.empty() ? build_dir / "perfduel" / "bisect" : absolute_or_current(options.work_dir);
  target.again = fmt::format("perfduel bisect --gate {}", options.gate);
  if (!options.build_dir.empty()) {
    target.again += " --build-dir " + util::quote_shell_word(build_dir.string());
  }
  return target;
}

// The target of --build and --run, in the repository of --source.
Target command_target(const BisectOptions& options) {
  Target target;
  target.repository = absolute_or_current(options.source);
  target.again = fmt::format("perfduel bisect --build {} --run {}{}", util::quote_shell_word(options.build),
                             util::quote_shell_word(options.run), options.shell ? " --shell" : "");
  return target;
}

// The work directory of --build and --run: --work-dir, else perfduel-bisect in the git
// directory that `git`'s worktrees share (`repository`: the top of the one given).
std::filesystem::path command_work_dir(const BisectOptions& options, Git& git,
                                       const std::filesystem::path& repository) {
  if (!options.work_dir.empty()) {
    return absolute_or_current(options.work_dir);
  }
  auto common = git.run({"rev-parse", "--git-common-dir"});
  if (!common) {
    throw Error(fmt::format("git rev-parse --git-common-dir in {}: {}", repository.string(), common.error()));
  }
  const std::filesystem::path common_dir = std::string(util::trim(*common));
  return (common_dir.is_absolute() ? common_dir : absolute_or_current(options.source) / common_dir)
             .lexically_normal() /
         "perfduel-bisect";
}

// The duels' configuration: --config, else the gate's, else the defaults.
Config base_config(const BisectOptions& options, const std::optional<GateFile>& gate) {
  std::string config_path = options.config;
  if (config_path.empty() && gate) {
    config_path = gate->config.string();
  }
  return config_path.empty() ? default_config() : load_config(config_path);
}

// How the probes' duels are run: their configurations `probes`, written to `search_dir` where
// their reports go too, with `base`'s run timeout, the options' CPUs and seed.
DuelPlan duel_plan(const std::filesystem::path& search_dir, const std::array<Config, 2>& probes,
                   const Config& base, const BisectOptions& options) {
  DuelPlan plan;
  std::error_code ec;
  plan.perfduel = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    throw Error(
        fmt::format("cannot find this program (/proc/self/exe: {}), which runs the duels", ec.message()));
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    plan.configs.at(attempt) = search_dir / fmt::format("duel-config-{}.json", attempt);
    write_json_file(plan.configs.at(attempt),
                    nlohmann::ordered_json::parse(config_to_json(probes.at(attempt))));
    plan.max_seconds.at(attempt) = probes.at(attempt).max_seconds;
  }
  plan.run_timeout = base.run_timeout;
  plan.reports = search_dir;
  plan.cpus = options.cpus;
  plan.seed = options.seed;
  return plan;
}

// What builds each commit of `target`: the gate's build, else the --build command.
std::unique_ptr<CommitBuilder> commit_builder(Executor& executor, const Target& target,
                                              const BisectOptions& options) {
  if (target.gate) {
    return std::make_unique<GateBuilder>(executor, *target.gate, options.build_config, target.work_dir,
                                         options.build_timeout);
  }
  return std::make_unique<CommandBuilder>(executor, target.repository, target.git_program, options.build,
                                          options.run, options.shell ? Launch::shell : Launch::direct,
                                          target.work_dir, options.build_timeout);
}

// Runs the search and reports it: progress on stderr, the result on stdout, the JSON report
// in `search_dir` (and at --json). Returns bisect's exit code; an endpoint that fails or an
// interruption is thrown.
int search_and_report(const BisectContext& context, const BisectOptions& options, Oracle& oracle,
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
    write_json_file(search_dir / "bisect.json", bisect_to_json(context, state, listener.elapsed()));
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

int run_bisect(const BisectOptions& options) {
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
  Target target = options.gate.empty() ? command_target(options) : gate_target(options);
  for (const auto& [option, value] : {std::pair<const char*, const std::string*>{"--config", &options.config},
                                      {"--threshold", &options.threshold}}) {
    if (!value->empty()) {
      target.again += fmt::format(" {} {}", option, util::quote_shell_word(*value));
    }
  }
  ProcessGit git(executor, target.repository, target.git_program);
  target.repository = repository_top(git);
  if (!target.gate) {
    target.work_dir = command_work_dir(options, git, target.repository);
  }

  const Commit good = resolve_commit(git, "--good", options.good);
  const Commit bad = resolve_commit(git, "--bad", options.bad);
  const std::vector<Commit> chain = first_parent_chain(git, good, bad, options.good, options.bad);

  // The duels' configuration, made into the probes'.
  const Config base = base_config(options, target.gate);
  settings.planned_duels = planned_duels(chain.size() - 1);
  // --max-seconds, else the configuration's budget within the gate's (TIMEOUT minus its margin).
  settings.max_seconds = options.max_seconds;
  if (!settings.max_seconds && target.gate && target.gate->max_seconds > 0) {
    settings.max_seconds = std::min(base.max_seconds, target.gate->max_seconds);
  }
  const std::array<Config, 2> probes{probe_config(base, settings, 0), probe_config(base, settings, 1)};

  BisectContext context;
  context.gate = options.gate;
  context.good_ref = options.good;
  context.bad_ref = options.bad;
  context.chain = chain;
  context.cut = cut_text(probes[0], options.good);
  context.search_confidence = settings.search_confidence;
  context.duel_confidence = probes[0].confidence;
  context.planned_duels = settings.planned_duels;
  context.duel_seconds = probes[0].max_seconds;
  context.work_dir = target.work_dir;
  context.command = target.again;
  context.started = now_iso8601();

  const std::filesystem::path search_dir = target.work_dir / "searches" / search_name(context.started);
  std::error_code ec;
  std::filesystem::create_directories(search_dir, ec);
  if (ec) {
    throw Error(fmt::format("--work-dir: cannot create {}: {}", search_dir.string(), ec.message()));
  }
  const DuelPlan plan = duel_plan(search_dir, probes, base, options);
  const auto builder = commit_builder(executor, target, options);
  ProbeOracle oracle(executor, *builder, chain, plan);
  return search_and_report(context, options, oracle, search_dir, started_clock);
}

}  // namespace

void add_bisect_options(CLI::App& subcommand, int& exit_code) {
  const auto [command, options] = bind_command<BisectOptions>(subcommand, exit_code, run_bisect);
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
