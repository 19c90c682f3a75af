#include "bisect/commit_chain.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "error.hpp"
#include "util/text.hpp"

namespace perfduel::bisect {

namespace {

// git answers quickly; a minute means it is stuck (a lock, a network filesystem).
constexpr double k_git_timeout_seconds = 300;

// What an RunResult that did not end with exit 0 was, in words.
std::string run_failure(const RunResult& result) {
  switch (result.status) {
    case RunStatus::exited:
      return fmt::format("exit status {}", result.exit_code);
    case RunStatus::signaled:
      return fmt::format("killed by signal {}", result.signal);
    case RunStatus::timed_out:
      return "timed out";
    case RunStatus::failed_to_start:
      return "could not start: " + result.error;
    case RunStatus::failed_to_count:
      return "could not be counted: " + result.error;
    case RunStatus::interrupted:
      return "interrupted";
  }
  return "failed";
}

}  // namespace

util::Expected<std::string> run_tool(Executor& executor, const CommandSpec& command, double timeout_seconds) {
  RunLimits limits;
  limits.timeout_seconds = timeout_seconds;
  RunResult result = executor.run(command, limits);
  if (result.status == RunStatus::exited && result.exit_code == 0) {
    return std::move(result.out);
  }
  const std::string tail = util::tail_lines(result.err, 5);
  return util::Expected<std::string>::failure(
      result.status == RunStatus::interrupted
          ? std::string("interrupted")
          : fmt::format("{}{}{}", run_failure(result), tail.empty() ? "" : ": ", util::trim(tail)));
}

ProcessGit::ProcessGit(Executor& executor, std::filesystem::path directory, std::string git)
    : m_executor(executor), m_directory(std::move(directory)), m_git(std::move(git)) {}

util::Expected<std::string> ProcessGit::run(const std::vector<std::string>& args) {
  CommandSpec command;
  command.argv.push_back(m_git);
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.working_directory = m_directory;
  // Never prompt (a credential helper on a terminal) and never page.
  command.environment = {{"GIT_TERMINAL_PROMPT", "0"}, {"GIT_PAGER", "cat"}};
  return run_tool(m_executor, command, k_git_timeout_seconds);
}

std::filesystem::path repository_top(Git& git) {
  auto top = git.run({"rev-parse", "--show-toplevel"});
  if (!top) {
    throw Error(
        fmt::format("{} is not inside a git repository (git rev-parse: {}); bisect walks the git "
                    "history: run it in a clone",
                    git.directory().string(), top.error()));
  }
  return std::string(util::trim(*top));
}

Commit resolve_commit(Git& git, const std::string& option, const std::string& ref) {
  if (ref.empty() || ref.front() == '-') {
    throw Error(fmt::format("{} \"{}\": expected a commit, a tag or a branch", option, ref));
  }
  auto id = git.run({"rev-parse", "--verify", "--end-of-options", ref + "^{commit}"});
  if (!id) {
    throw Error(fmt::format("{} {}: not a commit in {} (git rev-parse: {})", option, ref,
                            git.directory().string(), util::first_line(id.error())));
  }
  Commit commit;
  commit.id = std::string(util::trim(*id));
  auto subject = git.run({"log", "-1", "--format=%s", commit.id});
  commit.subject = subject ? util::first_line(*subject) : std::string();
  return commit;
}

util::Expected<std::vector<LogEntry>> parse_log(std::string_view log) {
  std::vector<LogEntry> entries;
  for (const std::string& line : util::split_lines(log)) {
    if (line.empty()) {
      continue;
    }
    const auto one = line.find('\x1f');
    const auto two = one == std::string::npos ? std::string::npos : line.find('\x1f', one + 1);
    if (two == std::string::npos) {
      return util::Expected<std::vector<LogEntry>>::failure(
          fmt::format("unexpected line from git log: \"{}\"", util::shorten(line, 80)));
    }
    LogEntry entry;
    entry.commit = {line.substr(0, one), line.substr(two + 1)};
    const std::string parents = line.substr(one + 1, two - one - 1);
    for (std::size_t start = 0; start < parents.size();) {
      const auto space = std::min(parents.find(' ', start), parents.size());
      if (space > start) {
        entry.parents.push_back(parents.substr(start, space - start));
      }
      start = space + 1;
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::vector<Commit> first_parent_chain(Git& git, const Commit& good, const Commit& bad,
                                       const std::string& good_ref, const std::string& bad_ref) {
  const std::string where = git.directory().string();
  if (good.id == bad.id) {
    throw Error(
        fmt::format("--good {} and --bad {} are the same commit ({}): there is nothing between them to "
                    "search",
                    good_ref, bad_ref, short_id(good.id)));
  }
  if (!git.run({"merge-base", "--is-ancestor", good.id, bad.id})) {
    auto shallow = git.run({"rev-parse", "--is-shallow-repository"});
    const bool is_shallow = shallow && util::trim(*shallow) == "true";
    throw Error(fmt::format(
        "--good {} ({}) is not an ancestor of --bad {} ({}) in {}: expected an older commit of the same "
        "history{}",
        good_ref, short_id(good.id), bad_ref, short_id(bad.id), where,
        is_shallow ? "; this is a shallow clone, fetch the history first: git fetch --unshallow"
                   : " (are they swapped?)"));
  }
  auto log =
      git.run({"log", "--first-parent", "--reverse", "--format=%H%x1f%P%x1f%s", good.id + ".." + bad.id});
  if (!log) {
    throw Error(fmt::format("git log in {} failed: {}", where, log.error()));
  }
  auto entries = parse_log(*log);
  if (!entries) {
    throw Error(fmt::format("git log in {}: {}", where, entries.error()));
  }
  if (entries->empty()) {
    throw Error(
        fmt::format("git log in {} lists no commit from --good {} to --bad {}", where, good_ref, bad_ref));
  }
  const auto& first_parents = entries->front().parents;
  if (first_parents.empty() || first_parents.front() != good.id) {
    // bad's first parents reach good's history below good itself.
    const std::string meets = first_parents.empty() ? std::string("?") : short_id(first_parents.front());
    throw Error(fmt::format(
        "--good {} ({}) is not on the first-parent history of --bad {}: it is on a branch merged into it, "
        "and bisect walks first parents (docs/bisect.md). Start from the commit where that history meets "
        "it: --good {}",
        good_ref, short_id(good.id), bad_ref, meets));
  }
  std::vector<Commit> chain{good};
  for (LogEntry& entry : entries.value()) {
    chain.push_back(std::move(entry.commit));
  }
  return chain;
}

std::string short_id(const std::string& id, std::size_t length) {
  return id.substr(0, length);
}

}  // namespace perfduel::bisect
