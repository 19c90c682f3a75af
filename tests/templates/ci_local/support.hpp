// What every part of ci_local shares: its exit codes, its one error, running a program.
#pragma once

#include <cctype>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace ci_local {

namespace fs = std::filesystem;

// The exit codes (the file-top comment of ci_local.cpp says what each means).
constexpr int k_passed = 0;
constexpr int k_failed = 1;
constexpr int k_allowed_failure = 2;
constexpr int k_unsupported = 3;
constexpr int k_not_run = 99;

// What this program cannot do: the message says what and where.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Where a parser of an expression is in its text, and the three steps both CI systems'
// expression parsers take (GitHub's `${{ }}`, GitLab's `rules: if:`): blanks skipped, a token
// taken, an error naming the expression (`what` it is) and the offset.
class ExpressionScanner {
 protected:
  ExpressionScanner(std::string text, std::string what) : m_text(std::move(text)), m_what(std::move(what)) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw Unsupported(fmt::format("{} \"{}\": {} at offset {}", m_what, m_text, problem, m_pos));
  }

  void skip_blanks() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])) != 0) {
      ++m_pos;
    }
  }

  // Takes `token` (after blanks) if the text goes on with it.
  bool take(const std::string& token) {
    skip_blanks();
    if (m_text.compare(m_pos, token.size(), token) == 0) {
      m_pos += token.size();
      return true;
    }
    return false;
  }

  std::string m_text;
  std::size_t m_pos = 0;

 private:
  std::string m_what;
};

// Environment variables (GitLab's CI/CD variables too), by name.
using Env = std::map<std::string, std::string>;

// `text` in lower case.
std::string lower(std::string text);

// `text` without leading and trailing blanks.
std::string trim(const std::string& text);

// NAME and VALUE of `text` ("NAME=VALUE"), the value of command-line option `option`.
std::pair<std::string, std::string> split_assignment(const std::string& text, const std::string& option);

// This process's environment.
Env process_environment();

// Runs `argv` (an absolute program) in `directory` with exactly `env`; its exit code, 128 + the
// signal that killed it.
int run(const std::vector<std::string>& argv, const Env& env, const fs::path& directory);

// `node`'s text, empty when it is missing or not a scalar.
std::string scalar(const YAML::Node& node);

// Whether `script` would reach the network (apt-get, git clone): a test must replace it.
bool reaches_network(const std::string& script);

// Throws Unsupported, naming `where`, unless `node` is a mapping whose keys are all `known`.
void check_keys(const YAML::Node& node, const std::vector<std::string>& known, const std::string& where);

}  // namespace ci_local
