#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "run/executor.hpp"
#include "util/expected.hpp"

// The commits a bisection walks: --good and --bad resolved in a git repository, and the
// first-parent history between them.
namespace perfduel::bisect {

struct Commit {
  std::string id;  // full object name
  std::string subject;
};

// Runs git in one repository; the seam that lets the tests script git's answers.
class Git {
 public:
  virtual ~Git() = default;

  // git's stdout for `args`, or the error: its exit status and the tail of its stderr.
  virtual util::Expected<std::string> run(const std::vector<std::string>& args) = 0;

  // The repository's directory, for messages.
  virtual const std::filesystem::path& directory() const = 0;
};

// Git as a child process through `executor`, in `directory`, with the program `git` (a path, or
// a name looked up on PATH).
class ProcessGit final : public Git {
 public:
  ProcessGit(Executor& executor, std::filesystem::path directory, std::string git = "git");

  util::Expected<std::string> run(const std::vector<std::string>& args) override;
  const std::filesystem::path& directory() const override { return m_directory; }

 private:
  Executor& m_executor;
  std::filesystem::path m_directory;
  std::string m_git;
};

// Runs `command` through `executor`, waiting at most `timeout_seconds`, and returns its stdout,
// or an error naming what went wrong (exit status, signal, timeout) with the tail of stderr.
// An interrupt (SIGINT) is an error that starts with "interrupted".
util::Expected<std::string> run_tool(Executor& executor, const CommandSpec& command, double timeout_seconds);

// The top directory of the git repository that holds `directory`. Throws perfduel::Error
// naming `directory` when it is not in one.
std::filesystem::path repository_top(Git& git);

// The commit `ref` names, given with the option `option` ("--good"), with its subject. Throws
// perfduel::Error "--good v9: not a commit in /repo (git rev-parse: ...)".
Commit resolve_commit(Git& git, const std::string& option, const std::string& ref);

// The commits from `good` to `bad` along bad's first parents, oldest first: `good` itself, every
// commit after it, `bad` last. The first-parent history is linear even where branches were
// merged: a merge is one step, and a regression a branch brought in is found as its merge.
// Throws perfduel::Error when `good` is not an ancestor of `bad`, is `bad`, or lies on a
// merged branch (the message names the first-parent commit to use instead).
std::vector<Commit> first_parent_chain(Git& git, const Commit& good, const Commit& bad,
                                       const std::string& good_ref, const std::string& bad_ref);

// One line of `git log --format=%H%x1f%P%x1f%s`.
struct LogEntry {
  Commit commit;
  std::vector<std::string> parents;
};

// Parses the output of `git log --format=%H%x1f%P%x1f%s`: one commit per line, its fields
// separated by \x1f.
util::Expected<std::vector<LogEntry>> parse_log(std::string_view log);

// The first `length` characters of a commit id, for tables and messages.
std::string short_id(const std::string& id, std::size_t length = 10);

}  // namespace perfduel::bisect
