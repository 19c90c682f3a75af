// Setting up a bisection: what it builds and runs (a gate's build, or --build and --run), where
// its worktrees and reports go, and the configurations of its probes' duels.
#include "bisect/setup.hpp"

#include <array>
#include <cctype>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "bisect/commit_chain.hpp"
#include "bisect/gate_file.hpp"
#include "bisect/search.hpp"
#include "config/config.hpp"
#include "error.hpp"
#include "util/json_file.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel::bisect {

namespace {

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

// What a search bisects: the gate's or the --build/--run commands, and where they run.
struct Target {
  std::optional<GateFile> gate;
  std::filesystem::path repository;
  std::string git_program = "git";
  std::filesystem::path work_dir;  // empty until known: for --build, from git
  std::string again;               // the command that bisects again with other endpoints
};

// The target of --gate: the gate file in its build directory says what and where.
Target gate_target(const BisectRequest& request) {
  Target target;
  const std::filesystem::path build_dir = absolute_or_current(request.build_dir);
  target.gate = read_gate_file(build_dir, request.gate);
  if (is_multi_config(target.gate->generator) && request.build_config.empty()) {
    throw Error(
        fmt::format("gate {}: the build uses the multi-config generator {}; give the configuration to "
                    "build, e.g. --build-config Release",
                    request.gate, target.gate->generator));
  }
  target.repository = target.gate->source_dir;
  if (!target.gate->git.empty() && std::filesystem::exists(target.gate->git)) {
    target.git_program = target.gate->git;
  }
  target.work_dir =
      request.work_dir.empty() ? build_dir / "perfduel" / "bisect" : absolute_or_current(request.work_dir);
  target.again = fmt::format("perfduel bisect --gate {}", request.gate);
  if (!request.build_dir.empty()) {
    target.again += " --build-dir " + util::quote_shell_word(build_dir.string());
  }
  return target;
}

// The target of --build and --run, in the repository of --source.
Target command_target(const BisectRequest& request) {
  Target target;
  target.repository = absolute_or_current(request.source);
  target.again = fmt::format("perfduel bisect --build {} --run {}{}", util::quote_shell_word(request.build),
                             util::quote_shell_word(request.run), request.shell ? " --shell" : "");
  return target;
}

// The target of `request`, its command to bisect again with the options that shape the duels.
Target request_target(const BisectRequest& request) {
  Target target = request.gate.empty() ? command_target(request) : gate_target(request);
  for (const auto& [option, value] : {std::pair<const char*, const std::string*>{"--config", &request.config},
                                      {"--threshold", &request.threshold}}) {
    if (!value->empty()) {
      target.again += fmt::format(" {} {}", option, util::quote_shell_word(*value));
    }
  }
  return target;
}

// The work directory of --build and --run: --work-dir, else perfduel-bisect in the git
// directory that `git`'s worktrees share (`repository`: the top of the one given).
std::filesystem::path command_work_dir(const BisectRequest& request, Git& git,
                                       const std::filesystem::path& repository) {
  if (!request.work_dir.empty()) {
    return absolute_or_current(request.work_dir);
  }
  auto common = git.run({"rev-parse", "--git-common-dir"});
  if (!common) {
    throw Error(fmt::format("git rev-parse --git-common-dir in {}: {}", repository.string(), common.error()));
  }
  const std::filesystem::path common_dir = std::string(util::trim(*common));
  return (common_dir.is_absolute() ? common_dir : absolute_or_current(request.source) / common_dir)
             .lexically_normal() /
         "perfduel-bisect";
}

// The duels' configuration: --config, else the gate's, else the defaults.
Config base_config(const BisectRequest& request, const std::optional<GateFile>& gate) {
  std::string config_path = request.config;
  if (config_path.empty() && gate) {
    config_path = gate->config.string();
  }
  return config_path.empty() ? default_config() : load_config(config_path);
}

// How the probes' duels are run: their configurations `probes`, written to `search_dir` where
// their reports go too, with `base`'s run timeout, the request's CPUs and seed.
DuelPlan duel_plan(const std::filesystem::path& search_dir, const std::array<Config, 2>& probes,
                   const Config& base, const BisectRequest& request) {
  DuelPlan plan;
  std::error_code ec;
  plan.perfduel = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    throw Error(
        fmt::format("cannot find this program (/proc/self/exe: {}), which runs the duels", ec.message()));
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    plan.configs.at(attempt) = search_dir / fmt::format("duel-config-{}.json", attempt);
    util::write_json_file(plan.configs.at(attempt),
                          nlohmann::ordered_json::parse(config_to_json(probes.at(attempt))));
    plan.max_seconds.at(attempt) = probes.at(attempt).max_seconds;
  }
  plan.run_timeout = base.run_timeout;
  plan.reports = search_dir;
  plan.cpus = request.cpus;
  plan.seed = request.seed;
  return plan;
}

// What builds each commit of `target`: the gate's build, else the --build command.
std::unique_ptr<CommitBuilder> commit_builder(Executor& executor, const Target& target,
                                              const BisectRequest& request) {
  if (target.gate) {
    return std::make_unique<GateBuilder>(executor, *target.gate, request.build_config, target.work_dir,
                                         request.build_timeout);
  }
  return std::make_unique<CommandBuilder>(executor, target.repository, target.git_program, request.build,
                                          request.run, request.shell ? Launch::shell : Launch::direct,
                                          target.work_dir, request.build_timeout);
}

// What the texts say of a search of `chain` with the probes `probes`.
BisectContext search_context(const BisectRequest& request, const Target& target, std::vector<Commit> chain,
                             const ProbeSettings& settings, const std::array<Config, 2>& probes) {
  BisectContext context;
  context.gate = request.gate;
  context.good_ref = request.good;
  context.bad_ref = request.bad;
  context.chain = std::move(chain);
  context.cut = cut_text(probes[0], request.good);
  context.search_confidence = settings.search_confidence;
  context.duel_confidence = probes[0].confidence;
  context.planned_duels = settings.planned_duels;
  context.duel_seconds = probes[0].max_seconds;
  context.work_dir = target.work_dir;
  context.command = target.again;
  context.started = util::now_iso8601();
  return context;
}

}  // namespace

PreparedSearch prepare_search(const BisectRequest& request, ProbeSettings settings, Executor& executor) {
  Target target = request_target(request);
  ProcessGit git(executor, target.repository, target.git_program);
  target.repository = repository_top(git);
  if (!target.gate) {
    target.work_dir = command_work_dir(request, git, target.repository);
  }
  const Commit good = resolve_commit(git, "--good", request.good);
  const Commit bad = resolve_commit(git, "--bad", request.bad);
  std::vector<Commit> chain = first_parent_chain(git, good, bad, request.good, request.bad);

  // The duels' configuration, made into the probes'.
  const Config base = base_config(request, target.gate);
  settings.planned_duels = planned_duels(chain.size() - 1);
  // --max-seconds, else the configuration's budget within the gate's (TIMEOUT minus its margin).
  settings.max_seconds = request.max_seconds;
  if (!settings.max_seconds && target.gate && target.gate->max_seconds > 0) {
    settings.max_seconds = std::min(base.max_seconds, target.gate->max_seconds);
  }
  const std::array<Config, 2> probes{probe_config(base, settings, 0), probe_config(base, settings, 1)};

  PreparedSearch search;
  search.context = search_context(request, target, std::move(chain), settings, probes);
  search.search_dir = target.work_dir / "searches" / search_name(search.context.started);
  std::error_code ec;
  std::filesystem::create_directories(search.search_dir, ec);
  if (ec) {
    throw Error(fmt::format("--work-dir: cannot create {}: {}", search.search_dir.string(), ec.message()));
  }
  search.plan = duel_plan(search.search_dir, probes, base, request);
  search.builder = commit_builder(executor, target, request);
  return search;
}

}  // namespace perfduel::bisect
