#include "bisect/commit_builder.hpp"

#include <chrono>
#include <utility>

#include <fmt/format.h>

#include "error.hpp"
#include "util/file.hpp"
#include "util/shell_words.hpp"
#include "util/text.hpp"

namespace perfduel::bisect {

namespace {

// A commit's directory name: 12 hex digits are unique in any repository one bisects.
constexpr std::size_t k_key_length = 12;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The text of `path`, empty when it cannot be read: a stamp or an error file that is not
// there says nothing.
std::string read_text(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  return text ? std::move(text).value() : std::string();
}

void write_text(const std::filesystem::path& path, std::string_view text) {
  std::error_code ignored;
  std::filesystem::create_directories(path.parent_path(), ignored);
  if (const std::string error = util::write_file_atomically(path, text); !error.empty()) {
    throw Error(fmt::format("{}: cannot write: {}", path.string(), error));
  }
}

// The line of a build's output that tells most: the first one that names an error, else the
// last one.
std::string telling_line(std::string_view output) {
  const auto lines = util::split_lines(output);
  // A compiler's "file:line: error: ..." first; a command line echoed with -Werror is no error.
  for (const std::string_view mark : {"error:", "Error"}) {
    for (const auto& line : lines) {
      if (line.find(mark) != std::string::npos) {
        return std::string(util::trim(line));
      }
    }
  }
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (!util::trim(*it).empty()) {
      return std::string(util::trim(*it));
    }
  }
  return "";
}

// Initialises in `tree` (a worktree of a probed commit) the submodules that `working` (the
// repository's own working tree) has checked out, and no others, at the revisions the commit
// records, each cloned from `working`'s checkout of it (the URL's host may be out of reach, and
// what the working tree does not use, the build does not need), then theirs; as
// cmake/module/PerfDuelBaseline.cmake does for a gate's baseline. An error names the submodule.
std::string init_submodules(Executor& executor, const std::string& git_command,
                            const std::filesystem::path& tree, const std::filesystem::path& working) {
  std::error_code ec;
  if (!std::filesystem::exists(tree / ".gitmodules", ec)) {
    return "";
  }
  ProcessGit git(executor, tree, git_command);
  const auto paths = git.run({"config", "--file", ".gitmodules", "--get-regexp", R"(^submodule\..*\.path$)"});
  if (!paths) {
    return "";  // no submodule registered
  }
  for (const auto& line : util::split_lines(*paths)) {
    // "submodule.<name>.path <path>"
    const auto space = line.find(' ');
    constexpr std::string_view k_prefix = "submodule.";
    constexpr std::string_view k_suffix = ".path";
    if (space == std::string_view::npos || space < k_prefix.size() + k_suffix.size()) {
      continue;
    }
    const std::string name(line.substr(k_prefix.size(), space - k_prefix.size() - k_suffix.size()));
    const std::string path(util::trim(line.substr(space + 1)));
    const std::filesystem::path local = working / path;
    ProcessGit local_git(executor, local, git_command);
    const auto top = std::filesystem::is_directory(local, ec)
                         ? local_git.run({"rev-parse", "--show-toplevel"})
                         : util::Expected<std::string>::failure("missing");
    const bool checked_out = top && std::filesystem::equivalent(std::string(util::trim(*top)), local, ec);
    const auto link = git.run({"ls-files", "--stage", "--", path});
    if (!checked_out || !link || !link->starts_with("160000 ")) {
      continue;
    }
    auto updated =
        git.run({"-c", "protocol.file.allow=always", "-c", "submodule." + name + ".url=" + local.string(),
                 "submodule", "update", "--init", "--", path});
    if (!updated) {
      // The commit's revision is not among the working tree's objects: from the URL.
      updated = git.run({"submodule", "update", "--init", "--", path});
      if (!updated) {
        return fmt::format("{}: {}", path, updated.error());
      }
    }
    if (std::string error = init_submodules(executor, git_command, tree / path, local); !error.empty()) {
      return error;
    }
  }
  return "";
}

// The path after "Full log: " or "Log: " in a message of PerfDuelBaseline.cmake, if any.
std::string log_named_in(std::string_view cause) {
  for (const std::string_view marker : {"Full log: ", "Log: "}) {
    const auto at = cause.rfind(marker);
    if (at != std::string_view::npos) {
      return util::first_line(cause.substr(at + marker.size()));
    }
  }
  return "";
}

}  // namespace

std::string substitute(std::string text, const std::string& commit, const std::string& dir) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{commit}", commit}, {"{dir}", dir}}) {
    for (std::size_t at = 0; (at = text.find(key, at)) != std::string::npos; at += value.size()) {
      text.replace(at, key.size(), value);
    }
  }
  return text;
}

// --- The gate's way --------------------------------------------------------------------------

GateBuilder::GateBuilder(Executor& executor, GateFile gate, std::string build_config,
                         std::filesystem::path work_dir, double timeout_seconds)
    : m_executor(executor),
      m_gate(std::move(gate)),
      m_build_config(std::move(build_config)),
      m_work_dir(std::move(work_dir)),
      m_timeout_seconds(timeout_seconds) {}

std::filesystem::path GateBuilder::link(const Commit& commit) const {
  return m_work_dir / "bin" / short_id(commit.id, k_key_length) / m_gate.target;
}

BuildReading GateBuilder::build(const Commit& commit) {
  const auto started = std::chrono::steady_clock::now();
  const std::filesystem::path link_path = link(commit);
  CommandSpec command;
  command.argv = {m_gate.cmake.string(),
                  "-DPERFDUEL_GATE_FILE=" + m_gate.path.string(),
                  "-DPERFDUEL_BUILD_CONFIG=" + m_build_config,
                  "-DPERFDUEL_BASELINE_LINK=" + link_path.string(),
                  "-DPERFDUEL_COMMIT=" + commit.id,
                  "-DPERFDUEL_WORK_DIR=" + (m_work_dir / "builds").string(),
                  "-DPERFDUEL_ERROR_EXIT=status",
                  "-P",
                  m_gate.script.string()};
  RunLimits limits;
  limits.timeout_seconds = m_timeout_seconds;
  const RunResult result = m_executor.run(command, limits);
  BuildReading reading;
  reading.seconds = seconds_since(started);
  reading.log = (link_path.parent_path() / "build-step.log").string();
  write_text(reading.log, result.out + result.err);
  if (result.status == RunStatus::interrupted) {
    reading.interrupted = true;
    reading.reason = "interrupted";
    return reading;
  }
  if (result.status == RunStatus::exited && result.exit_code == 0 && std::filesystem::exists(link_path)) {
    reading.ok = true;
    reading.cached = result.out.find("cached, not rebuilt") != std::string::npos;
    return reading;
  }
  std::string cause = read_text(link_path.string() + ".error");
  if (util::trim(cause).empty()) {
    cause = result.status == RunStatus::timed_out
                ? fmt::format("the build took longer than {} (--build-timeout)",
                              util::format_seconds(m_timeout_seconds))
                : fmt::format("the build step failed: {}", util::trim(util::tail_lines(result.err, 3)));
  }
  // "building X at the commit Y failed (1). Last lines of the log:" and the log's tail: the
  // first line, and the tail's line that tells most.
  reading.reason = util::first_line(cause);
  if (const auto cut = reading.reason.find(" Last lines of the log:"); cut != std::string::npos) {
    std::string telling = telling_line(cause.substr(cause.find('\n') + 1));
    if (telling.rfind("| ", 0) == 0) {
      telling = telling.substr(2);
    }
    reading.reason = reading.reason.substr(0, cut) + (telling.empty() ? "" : " " + telling);
  }
  if (const std::string log = log_named_in(cause); !log.empty()) {
    reading.log = log;
  }
  return reading;
}

CommandSpec GateBuilder::benchmark(const Commit& commit) const {
  CommandSpec command;
  command.argv.push_back(link(commit).string());
  command.argv.insert(command.argv.end(), m_gate.args.begin(), m_gate.args.end());
  command.working_directory = m_gate.working_directory;
  return command;
}

// --- Any command's way -----------------------------------------------------------------------

CommandBuilder::CommandBuilder(Executor& executor, std::filesystem::path repository, std::string git,
                               std::string build, std::string run, Launch launch,
                               std::filesystem::path work_dir, double timeout_seconds)
    : m_executor(executor),
      m_repository(std::move(repository)),
      m_git(std::move(git)),
      m_build(std::move(build)),
      m_run(std::move(run)),
      m_launch(launch),
      m_work_dir(std::move(work_dir)),
      m_timeout_seconds(timeout_seconds) {}

std::filesystem::path CommandBuilder::directory(const Commit& commit) const {
  return m_work_dir / short_id(commit.id, k_key_length) / "src";
}

std::string CommandBuilder::check_out(const Commit& commit) {
  const std::filesystem::path dir = directory(commit);
  ProcessGit repo(m_executor, m_repository, m_git);
  // Registrations whose directory is gone (a deleted work directory) would block `worktree add`.
  if (auto pruned = repo.run({"worktree", "prune"}); !pruned) {
    return "git worktree prune: " + pruned.error();
  }
  std::error_code ec;
  if (std::filesystem::exists(dir, ec)) {
    // Reuse it only if it is a worktree at this very commit (a broken .git file would let git
    // walk up to the enclosing repository).
    ProcessGit tree(m_executor, dir, m_git);
    const auto top = tree.run({"rev-parse", "--show-toplevel"});
    const auto head = tree.run({"rev-parse", "HEAD"});
    if (top && head && util::trim(*head) == commit.id &&
        std::filesystem::equivalent(std::string(util::trim(*top)), dir, ec)) {
      return "";
    }
    (void)repo.run({"worktree", "remove", "--force", dir.string()});
    std::filesystem::remove_all(dir, ec);
    (void)repo.run({"worktree", "prune"});
  }
  std::filesystem::create_directories(dir.parent_path(), ec);
  auto added = repo.run({"worktree", "add", "--detach", dir.string(), commit.id});
  if (!added) {
    // A registration that is locked or whose path was reused: force it once.
    added = repo.run({"worktree", "add", "--force", "--detach", dir.string(), commit.id});
    if (!added) {
      return "git worktree add: " + added.error();
    }
  }
  if (const std::string error = init_submodules(m_executor, m_git, dir, m_repository); !error.empty()) {
    return "git submodule update: " + error;
  }
  return "";
}

BuildReading CommandBuilder::build(const Commit& commit) {
  const auto started = std::chrono::steady_clock::now();
  const std::filesystem::path dir = directory(commit);
  const std::filesystem::path stamp = dir.parent_path() / "built";
  const std::string script = substitute(m_build, commit.id, dir.string());
  BuildReading reading;
  reading.log = (dir.parent_path() / "build.log").string();
  std::error_code ec;
  if (std::filesystem::exists(stamp, ec) && read_text(stamp) == script && std::filesystem::exists(dir, ec)) {
    reading.ok = true;
    reading.cached = true;
    reading.seconds = seconds_since(started);
    return reading;
  }
  std::filesystem::remove(stamp, ec);
  if (const std::string error = check_out(commit); !error.empty()) {
    reading.interrupted = error.find("interrupted") != std::string::npos;
    reading.reason = error;
    reading.seconds = seconds_since(started);
    return reading;
  }
  CommandSpec command;
  command.argv = {"/bin/sh", "-c", script};
  command.working_directory = dir;
  RunLimits limits;
  limits.timeout_seconds = m_timeout_seconds;
  const RunResult result = m_executor.run(command, limits);
  reading.seconds = seconds_since(started);
  write_text(reading.log, fmt::format("$ {}\n{}{}", script, result.out, result.err));
  if (result.status == RunStatus::interrupted) {
    reading.interrupted = true;
    reading.reason = "interrupted";
    return reading;
  }
  if (result.status == RunStatus::exited && result.exit_code == 0) {
    write_text(stamp, script);
    reading.ok = true;
    return reading;
  }
  const std::string last = telling_line(result.out + result.err);
  reading.reason = fmt::format(
      "the build command {} ({}): {}", result.status == RunStatus::timed_out ? "timed out" : "failed",
      result.status == RunStatus::exited     ? fmt::format("exit status {}", result.exit_code)
      : result.status == RunStatus::signaled ? fmt::format("signal {}", result.signal)
                                             : util::format_seconds(m_timeout_seconds),
      last.empty() ? "no output" : last);
  return reading;
}

CommandSpec CommandBuilder::benchmark(const Commit& commit) const {
  const std::string text = substitute(m_run, commit.id, directory(commit).string());
  CommandSpec command;
  command.launch = m_launch;
  if (m_launch == Launch::shell) {
    command.argv = {text};
    return command;
  }
  auto words = util::split_shell_words(text);
  if (!words || words->empty()) {
    throw Error(fmt::format("--run: {} in \"{}\"", words ? "the command is empty" : words.error(), text));
  }
  command.argv = std::move(words).value();
  return command;
}

}  // namespace perfduel::bisect
