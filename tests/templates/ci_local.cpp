// ci_local: runs one job of a GitHub Actions workflow or of a GitLab CI pipeline on this
// machine, its shell steps as the CI system runs them, so that tests/templates can run the
// shipped templates instead of trusting them. It reads the YAML with yaml-cpp (a real parser:
// anchors, block scalars and quoting as CI reads them) and does what the CI system does with a
// job: decides whether it runs (GitHub `if:` expressions, GitLab `rules:`), builds its
// environment (workflow, job and step `env:`; GitLab `variables:` and `extends:`), substitutes
// `${{ }}` expressions, runs each step's script in the shell CI uses, carries `$GITHUB_ENV`,
// `$GITHUB_OUTPUT` and step outcomes forward, and ends the job as CI would (`continue-on-error`,
// `if: always()`, `allow_failure: exit_codes`, GitLab's after_script).
//
// What needs the network or a container is replaced, never silently: a `uses:` step runs the
// local script given for that action (`--action actions/checkout=SCRIPT`, its `with:` inputs in
// INPUT_<NAME> variables, dashes as underscores), a step can be replaced by name
// (`--replace "Build and install perfduel=SCRIPT"`), GitLab's before_script as a whole
// (`--replace-before-script SCRIPT`); a remaining step that runs apt-get or git clone, an
// action without a local script, or a key this program does not know stops it with exit 3.
//
//   ci_local github-matrix WORKFLOW JOB   one line "key=value ..." per matrix combination
//   ci_local github WORKFLOW JOB [--event E] [--ctx github.KEY=V] [--secret N=V] [--matrix K=V]
//            [--needs success|failure] [--workspace DIR] [--temp DIR] [--env N=V]
//            [--action NAME=SCRIPT] [--replace STEP=SCRIPT]
//   ci_local gitlab-parallel FILE JOB     the job's `parallel:` count, 1 without
//   ci_local scripts FILE                 every shell script in FILE, each followed by "#--"
//   ci_local gitlab FILE JOB [--var N=V] [--project-var N=V] [--node-index K]
//            [--previous success|failed] [--workspace DIR] [--replace-before-script SCRIPT]
//            [--replace-script SCRIPT] [--cache-dir DIR] [--include URL=FILE]
//            [--artifacts-in DIR]... [--artifacts-out DIR]   (artifacts: paths and reports, kept
//            under DIR with their relative paths; a needed job's unpacked into the workspace;
//            the job's `cache:` entries restored from and saved to DIR/<key>/, as a runner's
//            cache keeps them between pipelines)
//
// Exit codes: 0 the job passed; 1 it failed; 2 (GitLab) it failed with an exit code that
// `allow_failure` accepts ("passed with warnings"); 99 the job does not run (event, `if:` or
// `rules:`); 3 something this program cannot do here.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fnmatch.h>
#include <glob.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace {

namespace fs = std::filesystem;

constexpr int k_passed = 0;
constexpr int k_failed = 1;
constexpr int k_allowed_failure = 2;
constexpr int k_unsupported = 3;
constexpr int k_not_run = 99;

// What this program cannot do: the message says what and where.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Env = std::map<std::string, std::string>;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) {
    return "";
  }
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

std::pair<std::string, std::string> split_assignment(const std::string& text, const std::string& option) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw Unsupported(fmt::format("{} \"{}\": expected NAME=VALUE", option, text));
  }
  return {text.substr(0, equals), text.substr(equals + 1)};
}

Env process_environment() {
  Env env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const auto equals = text.find('=');
    if (equals != std::string::npos) {
      env[text.substr(0, equals)] = text.substr(equals + 1);
    }
  }
  return env;
}

// Runs `argv` (an absolute program) in `directory` with exactly `env`; its exit code, 128 + the
// signal that killed it.
int run(const std::vector<std::string>& argv, const Env& env, const fs::path& directory) {
  // Everything the child needs is built before fork().
  std::vector<std::string> entries;
  entries.reserve(env.size());
  for (const auto& [name, value] : env) {
    entries.push_back(fmt::format("{}={}", name, value));
  }
  std::vector<char*> envp;
  envp.reserve(entries.size() + 1);
  for (auto& entry : entries) {
    envp.push_back(entry.data());
  }
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> cargs;
  cargs.reserve(args.size() + 1);
  for (auto& arg : args) {
    cargs.push_back(arg.data());
  }
  cargs.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    throw std::runtime_error("fork failed");
  }
  if (pid == 0) {
    if (chdir(directory.c_str()) != 0) {
      std::perror(directory.c_str());
      _exit(127);
    }
    execve(cargs[0], cargs.data(), envp.data());
    std::perror(cargs[0]);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string scalar(const YAML::Node& node) {
  return node && node.IsScalar() ? node.Scalar() : "";
}

// A step or command that would reach the network, which a test must replace.
bool reaches_network(const std::string& script) {
  return script.find("apt-get") != std::string::npos || script.find("git clone") != std::string::npos;
}

void check_keys(const YAML::Node& node, const std::vector<std::string>& known, const std::string& where) {
  if (!node.IsMap()) {
    throw Unsupported(fmt::format("{}: expected a mapping", where));
  }
  for (const auto& entry : node) {
    const auto key = entry.first.Scalar();
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      throw Unsupported(fmt::format("{}: key \"{}\" is not supported by ci_local", where, key));
    }
  }
}

// --- GitHub Actions expressions -----------------------------------------------------------
// https://docs.github.com/actions/learn-github-actions/expressions: literals, contexts,
// ! == != < <= > >= && || and a few functions; == compares strings without case, && and ||
// return an operand, not a boolean.

struct Value {
  enum class Kind { null, boolean, number, string } kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;

  static Value of_string(std::string text) {
    Value v;
    v.kind = Kind::string;
    v.string = std::move(text);
    return v;
  }
  static Value of_bool(bool b) {
    Value v;
    v.kind = Kind::boolean;
    v.boolean = b;
    return v;
  }
  static Value of_number(double n) {
    Value v;
    v.kind = Kind::number;
    v.number = n;
    return v;
  }

  bool truthy() const {
    switch (kind) {
      case Kind::null:
        return false;
      case Kind::boolean:
        return boolean;
      case Kind::number:
        return number != 0 && !std::isnan(number);
      case Kind::string:
        return !string.empty();
    }
    return false;
  }

  double to_number() const {
    switch (kind) {
      case Kind::null:
        return 0;
      case Kind::boolean:
        return boolean ? 1 : 0;
      case Kind::number:
        return number;
      case Kind::string: {
        const auto text = trim(string);
        if (text.empty()) {
          return 0;
        }
        char* end = nullptr;
        const double n = std::strtod(text.c_str(), &end);
        return end != nullptr && *end == '\0' ? n : std::nan("");
      }
    }
    return 0;
  }

  std::string to_string() const {
    switch (kind) {
      case Kind::null:
        return "";
      case Kind::boolean:
        return boolean ? "true" : "false";
      case Kind::number:
        return number == std::floor(number) && std::abs(number) < 1e15
                   ? fmt::format("{}", static_cast<long long>(number))
                   : fmt::format("{}", number);
      case Kind::string:
        return string;
    }
    return "";
  }
};

bool loosely_equal(const Value& a, const Value& b) {
  if (a.kind == Value::Kind::string && b.kind == Value::Kind::string) {
    return lower(a.string) == lower(b.string);
  }
  if (a.kind == Value::Kind::null && b.kind == Value::Kind::null) {
    return true;
  }
  return a.to_number() == b.to_number();
}

// The state an expression is evaluated in.
struct ExpressionContext {
  std::map<std::string, std::string> values;  // "github.ref", "steps.shard.outputs.gates", ... lowercased
  bool job_failed = false;                    // for success() and failure()
};

class Expression {
 public:
  Expression(std::string text, const ExpressionContext& context)
      : m_text(std::move(text)), m_context(context) {}

  Value evaluate() {
    auto value = parse_or();
    skip_blanks();
    if (m_pos != m_text.size()) {
      fail("unexpected text");
    }
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Unsupported(fmt::format("expression \"{}\": {} at offset {}", m_text, what, m_pos));
  }

  void skip_blanks() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])) != 0) {
      ++m_pos;
    }
  }

  bool take(const std::string& token) {
    skip_blanks();
    if (m_text.compare(m_pos, token.size(), token) == 0) {
      m_pos += token.size();
      return true;
    }
    return false;
  }

  static bool identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
  }

  std::string identifier() {
    skip_blanks();
    const auto start = m_pos;
    while (m_pos < m_text.size() && identifier_char(m_text[m_pos])) {
      ++m_pos;
    }
    if (start == m_pos) {
      fail("expected a name");
    }
    return m_text.substr(start, m_pos - start);
  }

  Value parse_or() {
    auto left = parse_and();
    while (take("||")) {
      auto right = parse_and();
      left = left.truthy() ? left : right;
    }
    return left;
  }

  Value parse_and() {
    auto left = parse_equality();
    while (take("&&")) {
      auto right = parse_equality();
      left = left.truthy() ? right : left;
    }
    return left;
  }

  Value parse_equality() {
    auto left = parse_comparison();
    for (;;) {
      if (take("==")) {
        left = Value::of_bool(loosely_equal(left, parse_comparison()));
      } else if (take("!=")) {
        left = Value::of_bool(!loosely_equal(left, parse_comparison()));
      } else {
        return left;
      }
    }
  }

  Value parse_comparison() {
    auto left = parse_unary();
    for (;;) {
      if (take("<=")) {
        left = Value::of_bool(left.to_number() <= parse_unary().to_number());
      } else if (take(">=")) {
        left = Value::of_bool(left.to_number() >= parse_unary().to_number());
      } else if (take("<")) {
        left = Value::of_bool(left.to_number() < parse_unary().to_number());
      } else if (take(">")) {
        left = Value::of_bool(left.to_number() > parse_unary().to_number());
      } else {
        return left;
      }
    }
  }

  Value parse_unary() {
    if (take("!")) {
      return Value::of_bool(!parse_unary().truthy());
    }
    return parse_primary();
  }

  Value parse_primary() {
    skip_blanks();
    if (take("(")) {
      auto value = parse_or();
      if (!take(")")) {
        fail("expected )");
      }
      return value;
    }
    if (m_pos < m_text.size() && m_text[m_pos] == '\'') {
      std::string text;
      for (++m_pos;; ++m_pos) {
        if (m_pos >= m_text.size()) {
          fail("unterminated string");
        }
        if (m_text[m_pos] == '\'') {
          if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '\'') {
            text += '\'';
            ++m_pos;
            continue;
          }
          ++m_pos;
          break;
        }
        text += m_text[m_pos];
      }
      return Value::of_string(text);
    }
    if (m_pos < m_text.size() &&
        (std::isdigit(static_cast<unsigned char>(m_text[m_pos])) != 0 || m_text[m_pos] == '-')) {
      char* end = nullptr;
      const double n = std::strtod(m_text.c_str() + m_pos, &end);
      m_pos = static_cast<std::size_t>(end - m_text.c_str());
      return Value::of_number(n);
    }
    const auto name = identifier();
    if (name == "true" || name == "false") {
      return Value::of_bool(name == "true");
    }
    if (name == "null") {
      return {};
    }
    if (take("(")) {
      std::vector<Value> args;
      if (!take(")")) {
        do {
          args.push_back(parse_or());
        } while (take(","));
        if (!take(")")) {
          fail("expected )");
        }
      }
      return call(lower(name), args);
    }
    // A context path: a.b.c, a['b'], a.*
    std::string path = lower(name);
    for (;;) {
      if (take(".")) {
        path += "." + lower(identifier());
      } else if (take("[")) {
        const auto key = parse_or();
        if (!take("]")) {
          fail("expected ]");
        }
        path += "." + lower(key.to_string());
      } else {
        break;
      }
    }
    const auto it = m_context.values.find(path);
    return it == m_context.values.end() ? Value{} : Value::of_string(it->second);
  }

  Value call(const std::string& name, const std::vector<Value>& args) {
    const auto arity = [&](std::size_t n) {
      if (args.size() != n) {
        fail(fmt::format("{}() takes {} arguments", name, n));
      }
    };
    if (name == "success") {
      arity(0);
      return Value::of_bool(!m_context.job_failed);
    }
    if (name == "failure") {
      arity(0);
      return Value::of_bool(m_context.job_failed);
    }
    if (name == "always") {
      arity(0);
      return Value::of_bool(true);
    }
    if (name == "cancelled") {
      arity(0);
      return Value::of_bool(false);
    }
    if (name == "contains") {
      arity(2);
      return Value::of_bool(lower(args[0].to_string()).find(lower(args[1].to_string())) != std::string::npos);
    }
    if (name == "startswith") {
      arity(2);
      return Value::of_bool(lower(args[0].to_string()).rfind(lower(args[1].to_string()), 0) == 0);
    }
    if (name == "endswith") {
      arity(2);
      const auto text = lower(args[0].to_string());
      const auto end = lower(args[1].to_string());
      return Value::of_bool(text.size() >= end.size() &&
                            text.compare(text.size() - end.size(), end.size(), end) == 0);
    }
    if (name == "format") {
      if (args.empty()) {
        fail("format() needs a format string");
      }
      std::string text = args[0].to_string();
      for (std::size_t i = 1; i < args.size(); ++i) {
        const auto placeholder = fmt::format("{{{}}}", i - 1);
        for (auto at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder)) {
          text.replace(at, placeholder.size(), args[i].to_string());
        }
      }
      return Value::of_string(text);
    }
    fail(fmt::format("function {}() is not supported by ci_local", name));
  }

  std::string m_text;
  std::size_t m_pos = 0;
  const ExpressionContext& m_context;
};

Value evaluate(const std::string& text, const ExpressionContext& context) {
  return Expression(text, context).evaluate();
}

// `text` with each ${{ expression }} replaced by its value, as GitHub does before a shell
// ever sees a `run:` script.
std::string interpolate(const std::string& text, const ExpressionContext& context) {
  std::string out;
  std::size_t pos = 0;
  for (;;) {
    const auto open = text.find("${{", pos);
    if (open == std::string::npos) {
      return out + text.substr(pos);
    }
    const auto close = text.find("}}", open + 3);
    if (close == std::string::npos) {
      throw Unsupported(fmt::format("unterminated ${{{{ in \"{}\"", text));
    }
    out += text.substr(pos, open - pos);
    out += evaluate(text.substr(open + 3, close - open - 3), context).to_string();
    pos = close + 2;
  }
}

// The value of an `if:` (a bare expression, or one wrapped in ${{ }}); without a status
// function, success() && (expression), as GitHub reads it.
bool condition(const YAML::Node& node, const ExpressionContext& context) {
  if (!node) {
    return !context.job_failed;
  }
  auto text = trim(node.Scalar());
  if (text.rfind("${{", 0) == 0 && text.size() >= 5 && text.compare(text.size() - 2, 2, "}}") == 0) {
    text = text.substr(3, text.size() - 5);
  }
  static const std::regex status_function(R"(\b(success|failure|always|cancelled)\s*\()");
  const bool has_status = std::regex_search(text, status_function);
  const bool value = evaluate(text, context).truthy();
  return has_status ? value : value && !context.job_failed;
}

// --- GitHub Actions jobs -------------------------------------------------------------------

struct GithubOptions {
  fs::path workflow;
  std::string job;
  std::string event = "push";
  std::map<std::string, std::string> contexts;  // lowercased keys
  std::map<std::string, std::string> matrix;
  bool needs_failed = false;
  fs::path workspace = fs::current_path();
  fs::path temp;
  Env env_overrides;
  std::map<std::string, fs::path> actions;
  std::map<std::string, fs::path> replaced_steps;
};

// Does the workflow's `on:` start it for this event (and, for push and pull_request, for
// this branch)?
bool workflow_runs(const YAML::Node& on, const GithubOptions& options) {
  if (!on) {
    throw Unsupported("the workflow has no \"on:\"");
  }
  if (on.IsScalar()) {
    return on.Scalar() == options.event;
  }
  if (on.IsSequence()) {
    return std::any_of(on.begin(), on.end(),
                       [&](const YAML::Node& e) { return e.Scalar() == options.event; });
  }
  const auto trigger = on[options.event];
  if (!trigger) {
    return false;
  }
  if (!trigger.IsMap() || !trigger["branches"]) {
    return true;
  }
  std::string branch;
  const auto get = [&](const std::string& key) {
    const auto it = options.contexts.find(key);
    return it == options.contexts.end() ? std::string() : it->second;
  };
  if (options.event == "pull_request") {
    branch = get("github.base_ref");
  } else {
    branch = get("github.ref");
    if (branch.rfind("refs/heads/", 0) == 0) {
      branch = branch.substr(11);
    }
  }
  for (const auto& pattern : trigger["branches"]) {
    if (fnmatch(pattern.Scalar().c_str(), branch.c_str(), 0) == 0) {
      return true;
    }
  }
  return false;
}

std::vector<std::map<std::string, std::string>> matrix_of(const YAML::Node& job, const std::string& where) {
  std::vector<std::map<std::string, std::string>> combinations{{}};
  const auto strategy = job["strategy"];
  if (!strategy || !strategy["matrix"]) {
    return combinations;
  }
  for (const auto& entry : strategy["matrix"]) {
    const auto key = entry.first.Scalar();
    if (key == "include" || key == "exclude" || !entry.second.IsSequence()) {
      throw Unsupported(fmt::format("{}: strategy.matrix.{} is not supported by ci_local", where, key));
    }
    std::vector<std::map<std::string, std::string>> next;
    for (const auto& combination : combinations) {
      for (const auto& value : entry.second) {
        auto extended = combination;
        extended[key] = value.Scalar();
        next.push_back(extended);
      }
    }
    combinations = next;
  }
  return combinations;
}

// Reads a $GITHUB_OUTPUT or $GITHUB_ENV file: NAME=VALUE lines and NAME<<DELIMITER blocks.
std::map<std::string, std::string> read_assignments(const fs::path& path) {
  std::map<std::string, std::string> values;
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    const auto heredoc = line.find("<<");
    const auto equals = line.find('=');
    if (heredoc != std::string::npos && (equals == std::string::npos || heredoc < equals)) {
      const auto name = line.substr(0, heredoc);
      const auto delimiter = line.substr(heredoc + 2);
      std::string value;
      std::string body;
      bool first = true;
      while (std::getline(file, body) && body != delimiter) {
        value += (first ? "" : "\n") + body;
        first = false;
      }
      values[name] = value;
    } else if (equals != std::string::npos) {
      values[line.substr(0, equals)] = line.substr(equals + 1);
    }
  }
  return values;
}

void print_github_matrix(const GithubOptions& options) {
  const auto workflow = YAML::LoadFile(options.workflow.string());
  const auto job = workflow["jobs"][options.job];
  if (!job) {
    throw Unsupported(fmt::format("{}: no job \"{}\"", options.workflow.string(), options.job));
  }
  for (const auto& combination : matrix_of(job, options.job)) {
    std::string line;
    for (const auto& [key, value] : combination) {
      line += fmt::format("{}{}={}", line.empty() ? "" : " ", key, value);
    }
    std::cout << line << "\n";
  }
}

// What a job's steps share: the expression context (outcomes and outputs of the steps, the job's
// status), the environment ($GITHUB_ENV and $GITHUB_PATH carry it forward; `exported` keeps what
// they added, which a composite action hands back to its caller) and the defaults.
struct StepState {
  ExpressionContext context;
  Env env;
  Env exported;
  std::string default_shell;
  std::string default_directory;
  int number = 0;  // numbers each step's files in --temp, across composite actions too
};

int run_composite(const fs::path& directory, const YAML::Node& step, const std::string& id,
                  const ExpressionContext& step_context, const Env& step_env, StepState& state,
                  const GithubOptions& options, const std::string& where);

// Runs `steps` (a job's, or a composite action's) as the runner does, in order, each by its
// `if:`; a failed step fails the job unless `continue-on-error`.
void run_github_steps(const YAML::Node& steps, StepState& state, const GithubOptions& options,
                      const std::string& where) {
  for (const auto& step : steps) {
    const int number = ++state.number;
    const auto step_where = fmt::format("{}: step {}", where, number);
    check_keys(step,
               {"name", "id", "if", "run", "uses", "with", "env", "shell", "working-directory",
                "continue-on-error", "timeout-minutes"},
               step_where);
    const auto name = step["name"]   ? step["name"].Scalar()
                      : step["uses"] ? step["uses"].Scalar()
                                     : trim(step["run"].Scalar().substr(0, step["run"].Scalar().find('\n')));
    const auto id = step["id"] ? lower(step["id"].Scalar()) : fmt::format("__step{}", number);
    if (!condition(step["if"], state.context)) {
      std::cout << fmt::format("ci_local: step \"{}\": skipped\n", name);
      state.context.values[fmt::format("steps.{}.outcome", id)] = "skipped";
      state.context.values[fmt::format("steps.{}.conclusion", id)] = "skipped";
      continue;
    }

    Env step_env = state.env;
    ExpressionContext step_context = state.context;
    if (step["env"]) {
      for (const auto& entry : step["env"]) {
        const auto value = interpolate(entry.second.Scalar(), state.context);
        step_env[entry.first.Scalar()] = value;
        step_context.values["env." + lower(entry.first.Scalar())] = value;
      }
    }
    const auto output_file = options.temp / fmt::format("output_{}", number);
    const auto env_file = options.temp / fmt::format("env_{}", number);
    const auto path_file = options.temp / fmt::format("path_{}", number);
    for (const auto& file : {output_file, env_file, path_file}) {
      std::ofstream(file).close();
    }
    step_env["GITHUB_OUTPUT"] = output_file.string();
    step_env["GITHUB_ENV"] = env_file.string();
    step_env["GITHUB_PATH"] = path_file.string();
    auto directory = options.workspace;
    const auto step_directory =
        step["working-directory"] ? step["working-directory"].Scalar() : state.default_directory;
    if (!step_directory.empty()) {
      directory = options.workspace / interpolate(step_directory, step_context);
    }

    int status = 0;
    const auto started = std::chrono::steady_clock::now();
    if (const auto replaced = options.replaced_steps.find(name); replaced != options.replaced_steps.end()) {
      std::cout << fmt::format("ci_local: step \"{}\": replaced by {}\n", name, replaced->second.string());
      status = run({"/bin/bash", "-e", replaced->second.string()}, step_env, directory);
    } else if (step["uses"]) {
      const auto uses = step["uses"].Scalar();
      const auto action = uses.substr(0, uses.find('@'));
      const auto local = options.actions.find(action);
      if (local == options.actions.end()) {
        throw Unsupported(
            fmt::format("{} (\"{}\"): no local equivalent of {} (--action)", step_where, name, uses));
      }
      if (fs::is_directory(local->second)) {
        std::cout << fmt::format("ci_local: step \"{}\": {}, the composite action in {}\n", name, uses,
                                 local->second.string());
        status = run_composite(local->second, step, id, step_context, step_env, state, options, step_where);
      } else {
        if (step["with"]) {
          for (const auto& input : step["with"]) {
            auto input_name = input.first.Scalar();
            std::replace(input_name.begin(), input_name.end(), '-', '_');
            std::transform(input_name.begin(), input_name.end(), input_name.begin(),
                           [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
            step_env["INPUT_" + input_name] = interpolate(input.second.Scalar(), step_context);
          }
        }
        std::cout << fmt::format("ci_local: step \"{}\": {} by {}\n", name, uses, local->second.string());
        status = run({"/bin/bash", "-e", local->second.string()}, step_env, directory);
      }
    } else if (step["run"]) {
      const auto script = interpolate(step["run"].Scalar(), step_context);
      if (reaches_network(script)) {
        throw Unsupported(
            fmt::format("{} (\"{}\") runs apt-get or git clone: give it a local equivalent (--replace)",
                        step_where, name));
      }
      const auto script_file = options.temp / fmt::format("step_{}.sh", number);
      std::ofstream(script_file) << script;
      // GitHub's default shell on Linux: bash -e {0}; `shell: bash` adds pipefail.
      const auto shell = step["shell"] ? step["shell"].Scalar() : state.default_shell;
      std::vector<std::string> argv;
      if (shell.empty()) {
        argv = {"/bin/bash", "-e", script_file.string()};
      } else if (shell == "bash") {
        argv = {"/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", script_file.string()};
      } else if (shell == "sh") {
        argv = {"/bin/sh", "-e", script_file.string()};
      } else {
        throw Unsupported(fmt::format("{}: shell \"{}\" is not supported by ci_local", step_where, shell));
      }
      std::cout << fmt::format("ci_local: step \"{}\"\n", name);
      status = run(argv, step_env, directory);
    } else {
      throw Unsupported(fmt::format("{}: neither run nor uses", step_where));
    }

    // Each step's time, as the CI system shows it beside the step (docs/ci.md's cold and warm
    // tables are made of these lines).
    std::cout << fmt::format(
        "ci_local: step \"{}\": {:.1f} s\n", name,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    const bool continue_on_error =
        step["continue-on-error"] &&
        evaluate(interpolate(step["continue-on-error"].Scalar(), step_context), state.context).truthy();
    const auto outcome = status == 0 ? "success" : "failure";
    state.context.values[fmt::format("steps.{}.outcome", id)] = outcome;
    state.context.values[fmt::format("steps.{}.conclusion", id)] =
        status == 0 || continue_on_error ? "success" : "failure";
    if (status != 0) {
      std::cout << fmt::format("ci_local: step \"{}\": failed with exit code {}{}\n", name, status,
                               continue_on_error ? " (continue-on-error)" : "");
      state.context.job_failed = state.context.job_failed || !continue_on_error;
    }
    for (const auto& [output, value] : read_assignments(output_file)) {
      state.context.values[fmt::format("steps.{}.outputs.{}", id, lower(output))] = value;
    }
    for (const auto& [variable, value] : read_assignments(env_file)) {
      state.env[variable] = value;
      state.exported[variable] = value;
      state.context.values["env." + lower(variable)] = value;
    }
    std::ifstream paths(path_file);
    for (std::string line; std::getline(paths, line);) {
      if (!line.empty()) {
        state.env["PATH"] = line + ":" + state.env["PATH"];
        state.exported["PATH"] = state.env["PATH"];
      }
    }
  }
}

// A composite action (`--action NAME=DIR`, DIR/action.yml with `runs: using: composite`): its
// inputs from `with:` and their defaults (`inputs.*`), `github.action_path` and
// $GITHUB_ACTION_PATH its directory, its steps run with their own `steps.*`; what they export
// through $GITHUB_ENV and $GITHUB_PATH reaches the caller's later steps, its `outputs:` become
// the step's outputs. Returns 1 when one of its steps failed.
int run_composite(const fs::path& directory, const YAML::Node& step, const std::string& id,
                  const ExpressionContext& step_context, const Env& step_env, StepState& state,
                  const GithubOptions& options, const std::string& where) {
  const auto action = YAML::LoadFile((directory / "action.yml").string());
  const auto action_where = fmt::format("{}: {}", where, (directory / "action.yml").string());
  check_keys(action, {"name", "description", "author", "inputs", "outputs", "runs", "branding"},
             action_where);
  if (!action["runs"] || !action["runs"]["using"] || action["runs"]["using"].Scalar() != "composite") {
    throw Unsupported(fmt::format("{}: not a composite action (runs: using: composite)", action_where));
  }
  StepState inner;
  for (const auto& [key, value] : step_context.values) {
    if (key.rfind("steps.", 0) != 0 && key.rfind("inputs.", 0) != 0) {
      inner.context.values[key] = value;
    }
  }
  inner.context.values["github.action_path"] = directory.string();
  std::map<std::string, std::string> given;
  if (step["with"]) {
    for (const auto& input : step["with"]) {
      given[lower(input.first.Scalar())] = interpolate(input.second.Scalar(), step_context);
    }
  }
  for (const auto& input : action["inputs"]) {
    const auto name = lower(input.first.Scalar());
    check_keys(input.second, {"description", "required", "default", "deprecationMessage"},
               fmt::format("{}: input {}", action_where, name));
    std::string value;
    if (const auto it = given.find(name); it != given.end()) {
      value = it->second;
      given.erase(it);
    } else if (input.second["default"]) {
      value = interpolate(input.second["default"].Scalar(), inner.context);
    } else if (input.second["required"] && input.second["required"].as<bool>()) {
      throw Unsupported(fmt::format("{}: the required input {} is not given", action_where, name));
    }
    inner.context.values["inputs." + name] = value;
  }
  if (!given.empty()) {
    throw Unsupported(
        fmt::format("{}: no input {} (the action's inputs:)", action_where, given.begin()->first));
  }
  inner.env = step_env;
  inner.env["GITHUB_ACTION_PATH"] = directory.string();
  inner.number = state.number;
  run_github_steps(action["runs"]["steps"], inner, options, action_where);
  state.number = inner.number;
  for (const auto& [variable, value] : inner.exported) {
    state.env[variable] = value;
    state.exported[variable] = value;
    state.context.values["env." + lower(variable)] = value;
  }
  if (action["outputs"]) {
    for (const auto& output : action["outputs"]) {
      state.context.values[fmt::format("steps.{}.outputs.{}", id, lower(output.first.Scalar()))] =
          interpolate(output.second["value"].Scalar(), inner.context);
    }
  }
  return inner.context.job_failed ? 1 : 0;
}

int run_github_job(const GithubOptions& options) {
  const auto workflow = YAML::LoadFile(options.workflow.string());
  const auto where = fmt::format("{}: job {}", options.workflow.filename().string(), options.job);
  const auto job = workflow["jobs"][options.job];
  if (!job) {
    throw Unsupported(fmt::format("{}: no such job", where));
  }
  check_keys(
      job,
      {"name", "if", "runs-on", "container", "services", "timeout-minutes", "strategy", "steps", "env",
       "needs", "permissions", "concurrency", "defaults", "outputs", "continue-on-error", "environment"},
      where);
  if (!workflow_runs(workflow["on"], options)) {
    std::cout << fmt::format("ci_local: {}: the workflow does not run on this {} event\n", where,
                             options.event);
    return k_not_run;
  }

  ExpressionContext context;
  context.values = options.contexts;
  context.values["github.event_name"] = options.event;
  context.values["github.job"] = options.job;
  context.values["github.workspace"] = options.workspace.string();
  context.values.emplace("github.api_url", "https://api.github.com");
  context.values.emplace("github.repository", "owner/project");
  context.values.emplace("github.run_id", "1");
  context.values["runner.os"] = "Linux";
  context.values["runner.temp"] = options.temp.string();
  if (const auto token = context.values.find("secrets.github_token"); token != context.values.end()) {
    context.values["github.token"] = token->second;
  }

  // The job's `if:` sees the results of the jobs it needs.
  context.job_failed = options.needs_failed;
  if (!condition(job["if"], context)) {
    std::cout << fmt::format("ci_local: {}: skipped by its if: {}\n", where, scalar(job["if"]));
    return k_not_run;
  }
  context.job_failed = false;

  const auto combinations = matrix_of(job, where);
  if (std::find(combinations.begin(), combinations.end(), options.matrix) == combinations.end()) {
    throw Unsupported(fmt::format("{}: the matrix has no such combination (see github-matrix)", where));
  }
  for (const auto& [key, value] : options.matrix) {
    context.values["matrix." + lower(key)] = value;
  }

  // The environment: the runner's own, GitHub's variables, then workflow, job and step env.
  Env env = process_environment();
  const auto get = [&](const std::string& key) {
    return context.values.count(key) ? context.values[key] : "";
  };
  env["CI"] = "true";
  env["GITHUB_ACTIONS"] = "true";
  env["GITHUB_WORKSPACE"] = options.workspace.string();
  env["GITHUB_EVENT_NAME"] = options.event;
  env["GITHUB_JOB"] = options.job;
  env["GITHUB_REF"] = get("github.ref");
  env["GITHUB_SHA"] = get("github.sha");
  env["GITHUB_BASE_REF"] = get("github.base_ref");
  env["GITHUB_HEAD_REF"] = get("github.head_ref");
  env["GITHUB_REPOSITORY"] = get("github.repository");
  env["GITHUB_API_URL"] = get("github.api_url");
  env["GITHUB_SERVER_URL"] = "https://github.com";
  env["GITHUB_RUN_ID"] = get("github.run_id");
  env["RUNNER_OS"] = "Linux";
  env["RUNNER_TEMP"] = options.temp.string();
  const auto add_env = [&](const YAML::Node& node) {
    if (!node) {
      return;
    }
    for (const auto& entry : node) {
      const auto name = entry.first.Scalar();
      const auto value = interpolate(entry.second.Scalar(), context);
      env[name] = value;
      context.values["env." + lower(name)] = value;
    }
  };
  add_env(workflow["env"]);
  add_env(job["env"]);
  for (const auto& [name, value] : options.env_overrides) {
    env[name] = value;
    context.values["env." + lower(name)] = value;
  }
  std::string default_shell;
  std::string default_directory;
  for (const auto& defaults : {workflow["defaults"], job["defaults"]}) {
    if (defaults && defaults["run"]) {
      default_shell = defaults["run"]["shell"] ? defaults["run"]["shell"].Scalar() : default_shell;
      default_directory = defaults["run"]["working-directory"] ? defaults["run"]["working-directory"].Scalar()
                                                               : default_directory;
    }
  }

  fs::create_directories(options.temp);
  const auto summary = options.temp / "step_summary.md";
  env["GITHUB_STEP_SUMMARY"] = summary.string();
  std::ofstream(summary, std::ios::app).close();

  StepState state;
  state.context = context;
  state.env = env;
  state.default_shell = default_shell;
  state.default_directory = default_directory;
  run_github_steps(job["steps"], state, options, where);
  const bool failed = state.context.job_failed;
  std::cout << fmt::format("ci_local: {}: {}\n", where, failed ? "failed" : "passed");
  return failed ? k_failed : k_passed;
}

// --- GitLab CI -----------------------------------------------------------------------------

const std::vector<std::string> k_gitlab_reserved{"stages",   "variables",     "default",     "include",
                                                 "workflow", "image",         "services",    "cache",
                                                 "spec",     "before_script", "after_script"};

// GitLab's `extends:` merge: mappings merged key by key, everything else replaced.
YAML::Node deep_merge(const YAML::Node& base, const YAML::Node& over) {
  if (!base || !base.IsMap() || !over.IsMap()) {
    return YAML::Clone(over);
  }
  auto merged = YAML::Clone(base);
  for (const auto& entry : over) {
    const auto key = entry.first.Scalar();
    merged[key] = deep_merge(merged[key], entry.second);
  }
  return merged;
}

YAML::Node resolve_job(const YAML::Node& pipeline, const std::string& name, int depth = 0) {
  const auto job = pipeline[name];
  if (!job || !job.IsMap()) {
    throw Unsupported(fmt::format("no job \"{}\"", name));
  }
  if (depth > 10) {
    throw Unsupported(fmt::format("job \"{}\": extends nests too deep", name));
  }
  YAML::Node merged(YAML::NodeType::Map);
  if (const auto extends = job["extends"]) {
    std::vector<std::string> bases;
    if (extends.IsScalar()) {
      bases.push_back(extends.Scalar());
    } else {
      for (const auto& base : extends) {
        bases.push_back(base.Scalar());
      }
    }
    for (const auto& base : bases) {
      merged = deep_merge(merged, resolve_job(pipeline, base, depth + 1));
    }
  }
  YAML::Node own(YAML::NodeType::Map);
  for (const auto& entry : job) {
    if (entry.first.Scalar() != "extends") {
      own[entry.first.Scalar()] = entry.second;
    }
  }
  return deep_merge(merged, own);
}

std::string variable_value(const YAML::Node& node) {
  if (node.IsMap()) {
    return scalar(node["value"]);
  }
  return scalar(node);
}

// `text` with $NAME and ${NAME} replaced from `variables` (GitLab expands variables that
// refer to others); an unknown name becomes empty, "$$" a single "$".
std::string expand(const std::string& text, const Env& variables, int depth = 0) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    if (text[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    std::size_t start = i + 1;
    const bool braced = text[start] == '{';
    start += braced ? 1 : 0;
    std::size_t end = start;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_')) {
      ++end;
    }
    if (end == start || (braced && (end >= text.size() || text[end] != '}'))) {
      out += text[i];
      continue;
    }
    const auto name = text.substr(start, end - start);
    const auto it = variables.find(name);
    if (it != variables.end()) {
      out += depth < 5 ? expand(it->second, variables, depth + 1) : it->second;
    }
    i = braced ? end : end - 1;
  }
  return out;
}

// A GitLab `rules: if:` expression: $VARIABLE, "string", /regex/, null, == != =~ !~ && ||
// and parentheses (https://docs.gitlab.com/ci/jobs/job_rules/#cicd-variable-expressions).
class RuleExpression {
 public:
  RuleExpression(std::string text, const Env& variables) : m_text(std::move(text)), m_variables(variables) {}

  bool evaluate() {
    const bool value = parse_or();
    skip_blanks();
    if (m_pos != m_text.size()) {
      fail("unexpected text");
    }
    return value;
  }

 private:
  struct Operand {
    std::optional<std::string> value;  // none: null or an undefined variable
    bool regex = false;
  };

  [[noreturn]] void fail(const std::string& what) const {
    throw Unsupported(fmt::format("rules: if: \"{}\": {} at offset {}", m_text, what, m_pos));
  }

  void skip_blanks() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])) != 0) {
      ++m_pos;
    }
  }

  bool take(const std::string& token) {
    skip_blanks();
    if (m_text.compare(m_pos, token.size(), token) == 0) {
      m_pos += token.size();
      return true;
    }
    return false;
  }

  bool parse_or() {
    bool value = parse_and();
    while (take("||")) {
      const bool right = parse_and();
      value = value || right;
    }
    return value;
  }

  bool parse_and() {
    bool value = parse_comparison();
    while (take("&&")) {
      const bool right = parse_comparison();
      value = value && right;
    }
    return value;
  }

  bool parse_comparison() {
    if (take("(")) {
      const bool value = parse_or();
      if (!take(")")) {
        fail("expected )");
      }
      return value;
    }
    const auto left = operand();
    for (const std::string_view op : {"==", "!=", "=~", "!~"}) {
      if (!take(std::string(op))) {
        continue;
      }
      const auto right = operand();
      if (op == "==" || op == "!=") {
        return (left.value == right.value) == (op == "==");
      }
      if (!right.regex) {
        fail("=~ needs a /regex/");
      }
      const bool match = left.value && std::regex_search(*left.value, std::regex(*right.value));
      return match == (op == "=~");
    }
    return left.value.has_value() && !left.value->empty();
  }

  Operand operand() {
    skip_blanks();
    if (m_pos >= m_text.size()) {
      fail("expected an operand");
    }
    const char c = m_text[m_pos];
    if (c == '$') {
      ++m_pos;
      const bool braced = take("{");
      const auto start = m_pos;
      while (m_pos < m_text.size() &&
             (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) != 0 || m_text[m_pos] == '_')) {
        ++m_pos;
      }
      const auto name = m_text.substr(start, m_pos - start);
      if (braced && !take("}")) {
        fail("expected }");
      }
      const auto it = m_variables.find(name);
      return it == m_variables.end() ? Operand{} : Operand{it->second};
    }
    if (c == '"' || c == '\'') {
      const auto end = m_text.find(c, m_pos + 1);
      if (end == std::string::npos) {
        fail("unterminated string");
      }
      Operand result{m_text.substr(m_pos + 1, end - m_pos - 1)};
      m_pos = end + 1;
      return result;
    }
    if (c == '/') {
      const auto end = m_text.find('/', m_pos + 1);
      if (end == std::string::npos) {
        fail("unterminated /regex/");
      }
      Operand result{m_text.substr(m_pos + 1, end - m_pos - 1), true};
      m_pos = end + 1;
      while (m_pos < m_text.size() && std::isalpha(static_cast<unsigned char>(m_text[m_pos])) != 0) {
        ++m_pos;  // flags
      }
      return result;
    }
    if (take("null")) {
      return {};
    }
    fail("expected $VARIABLE, \"string\", /regex/ or null");
  }

  std::string m_text;
  std::size_t m_pos = 0;
  const Env& m_variables;
};

std::vector<std::string> script_lines(const YAML::Node& node) {
  std::vector<std::string> lines;
  if (!node) {
    return lines;
  }
  if (node.IsScalar()) {
    lines.push_back(node.Scalar());
    return lines;
  }
  for (const auto& item : node) {
    const auto nested = script_lines(item);  // GitLab flattens nested arrays (from anchors)
    lines.insert(lines.end(), nested.begin(), nested.end());
  }
  return lines;
}

// The commands as GitLab's bash runner joins them: one shell, `set -eo pipefail`, each
// command echoed ("$ command") before it runs.
std::string shell_script(const std::vector<std::string>& lines) {
  std::string script = "set -eo pipefail\nset +o noclobber\n";
  // Each entry's time, as "ci_local: step \"<its first line>\": <seconds> s" (as ci_local
  // github prints a step's), the last one's at exit too.
  script +=
      "__ci_step='' __ci_t0=0\n"
      "__ci_mark() {\n"
      "  local now; now=$(date +%s.%N)\n"
      "  if [ -n \"$__ci_step\" ]; then\n"
      "    printf 'ci_local: step \"%s\": %s s\\n' \"$__ci_step\" "
      "\"$(awk -v a=\"$now\" -v b=\"$__ci_t0\" 'BEGIN { printf \"%.1f\", a - b }')\"\n"
      "  fi\n"
      "  __ci_step=$1 __ci_t0=$now\n"
      "}\n"
      "trap '__ci_mark \"\"' EXIT\n";
  for (const auto& line : lines) {
    std::string echo = line.substr(0, line.find('\n'));
    std::string quoted;
    for (const char c : echo) {
      quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    script += fmt::format("__ci_mark '{0}'\nprintf '%s\\n' '$ {0}'\n{1}\n", quoted, line);
  }
  return script;
}

struct GitlabOptions {
  fs::path file;
  std::string job;
  Env predefined;
  Env project;
  int node_index = 0;
  bool previous_failed = false;
  fs::path workspace = fs::current_path();
  std::optional<fs::path> replaced_before_script;
  std::optional<fs::path> replaced_script;
  std::optional<fs::path> cache_dir;         // the runner's cache: one directory per key
  std::map<std::string, fs::path> includes;  // a remote include's local copy
  std::vector<fs::path> artifacts_in;        // artifacts of the jobs it needs, unpacked before it runs
  std::optional<fs::path> artifacts_out;
};

// Copies what `patterns` (globs relative to `workspace`, directories whole) match to the same
// relative paths under `destination`, as GitLab's artifact archive keeps them.
void copy_artifacts(const std::vector<std::string>& patterns, const fs::path& workspace,
                    const fs::path& destination) {
  for (const auto& pattern : patterns) {
    glob_t matches{};
    const auto absolute = (workspace / pattern).string();
    if (glob(absolute.c_str(), GLOB_MARK, nullptr, &matches) == 0) {
      for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
        const fs::path match = matches.gl_pathv[i];
        const auto relative = fs::relative(match, workspace);
        fs::create_directories((destination / relative).parent_path());
        fs::copy(match, destination / relative,
                 fs::copy_options::recursive | fs::copy_options::overwrite_existing);
      }
    }
    globfree(&matches);
  }
}

// One entry of a job's `cache:` (a mapping, or a list of them), its keys expanded.
struct GitlabCache {
  std::vector<std::string> keys;  // `key:`, then `fallback_keys:`, tried in this order
  std::vector<std::string> paths;
  std::string when = "on_success";
  std::string policy = "pull-push";
};

std::vector<GitlabCache> gitlab_caches(const YAML::Node& cache, const Env& variables,
                                       const std::string& where) {
  std::vector<GitlabCache> caches;
  const auto add = [&](const YAML::Node& entry) {
    check_keys(entry, {"key", "paths", "when", "policy", "fallback_keys"}, where + ": cache");
    if (entry["key"] && !entry["key"].IsScalar()) {
      throw Unsupported(fmt::format("{}: cache: key: files/prefix is not supported by ci_local", where));
    }
    GitlabCache result;
    // GitLab's default key, when none is given.
    result.keys.push_back(entry["key"] ? expand(entry["key"].Scalar(), variables) : "default");
    for (const auto& fallback : script_lines(entry["fallback_keys"])) {
      result.keys.push_back(expand(fallback, variables));
    }
    result.paths = script_lines(entry["paths"]);
    result.when = entry["when"] ? entry["when"].Scalar() : result.when;
    result.policy = entry["policy"] ? entry["policy"].Scalar() : result.policy;
    for (const auto& key : result.keys) {
      if (key.empty() || key.find('/') != std::string::npos || key == "." || key == "..") {
        throw Unsupported(fmt::format("{}: cache key \"{}\" is not one GitLab accepts", where, key));
      }
    }
    caches.push_back(result);
  };
  if (cache && cache.IsSequence()) {
    for (const auto& entry : cache) {
      add(entry);
    }
  } else if (cache) {
    add(cache);
  }
  return caches;
}

// Before the job: each cache's first key found in `store` unpacked into `workspace`.
void restore_caches(const std::vector<GitlabCache>& caches, const fs::path& store,
                    const fs::path& workspace) {
  for (const auto& cache : caches) {
    if (cache.policy == "push") {
      continue;
    }
    const auto found = std::find_if(cache.keys.begin(), cache.keys.end(),
                                    [&](const std::string& key) { return fs::exists(store / key); });
    if (found == cache.keys.end()) {
      std::cout << fmt::format("ci_local: cache {}: none yet\n", cache.keys.front());
      continue;
    }
    fs::copy(
        store / *found, workspace,
        fs::copy_options::recursive | fs::copy_options::overwrite_existing | fs::copy_options::copy_symlinks);
    std::cout << fmt::format("ci_local: cache {}: restored\n", *found);
  }
}

// After the job (after_script included): each cache's paths saved under its key, replacing what
// the key held, when the job's outcome matches the cache's `when:`.
void save_caches(const std::vector<GitlabCache>& caches, const fs::path& store, const fs::path& workspace,
                 int status) {
  for (const auto& cache : caches) {
    const bool wanted = cache.when == "always" || (cache.when == "on_success") == (status == 0);
    if (cache.policy == "pull" || !wanted) {
      continue;
    }
    const auto entry = store / cache.keys.front();
    fs::remove_all(entry);
    fs::create_directories(entry);
    copy_artifacts(cache.paths, workspace, entry);
    std::cout << fmt::format("ci_local: cache {}: saved\n", cache.keys.front());
  }
}

int gitlab_parallel(const YAML::Node& job) {
  const auto parallel = job["parallel"];
  if (!parallel) {
    return 1;
  }
  if (!parallel.IsScalar()) {
    throw Unsupported("parallel: matrix is not supported by ci_local");
  }
  return parallel.as<int>();
}

// The pipeline in `file` with its `include:`s merged in as GitLab merges them: each included file
// first, in order, then the including file's keys over them (jobs and other mappings merged key
// by key, lists replaced). A `local:` file is found relative to `file`'s directory (GitLab: the
// repository's root); a `remote:` one needs a local copy (`--include URL=FILE`).
YAML::Node load_gitlab(const fs::path& file, const std::map<std::string, fs::path>& includes, int depth = 0) {
  auto pipeline = YAML::LoadFile(file.string());
  const auto include = pipeline["include"];
  if (!include) {
    return pipeline;
  }
  if (depth > 10) {
    throw Unsupported(fmt::format("{}: include: nests too deep", file.string()));
  }
  YAML::Node merged(YAML::NodeType::Map);
  const auto add = [&](const YAML::Node& entry) {
    const bool remote = entry.IsMap() && entry["remote"];
    if (entry.IsMap()) {
      check_keys(entry, {"local", "remote"}, file.string() + ": include");
    }
    const auto name = entry.IsScalar() ? entry.Scalar()
                      : remote         ? entry["remote"].Scalar()
                                       : entry["local"].Scalar();
    fs::path path;
    if (const auto local_copy = includes.find(name); local_copy != includes.end()) {
      path = local_copy->second;
    } else if (remote || name.find("://") != std::string::npos) {
      throw Unsupported(
          fmt::format("{}: include: {} needs a local copy (--include URL=FILE)", file.string(), name));
    } else {
      path = file.parent_path() / (name.rfind('/', 0) == 0 ? name.substr(1) : name);
    }
    merged = deep_merge(merged, load_gitlab(path, includes, depth + 1));
  };
  if (include.IsSequence()) {
    for (const auto& entry : include) {
      add(entry);
    }
  } else {
    add(include);
  }
  pipeline.remove("include");
  return deep_merge(merged, pipeline);
}

int run_gitlab_job(const GitlabOptions& options) {
  const auto pipeline = load_gitlab(options.file, options.includes);
  const auto where = fmt::format("{}: job {}", options.file.filename().string(), options.job);
  auto job = resolve_job(pipeline, options.job);
  check_keys(job,
             {"stage",     "script",        "before_script", "after_script",  "variables", "rules",
              "image",     "services",      "tags",          "timeout",       "parallel",  "resource_group",
              "artifacts", "needs",         "dependencies",  "allow_failure", "when",      "cache",
              "retry",     "interruptible", "environment",   "coverage"},
             where);
  const auto defaults = pipeline["default"];
  for (const auto* key : {"before_script", "after_script"}) {
    if (!job[key]) {
      if (defaults && defaults[key]) {
        job[key] = defaults[key];
      } else if (pipeline[key]) {
        job[key] = pipeline[key];
      }
    }
  }

  // Variables, lowest precedence first: predefined, the file's, the job's, the project's.
  Env variables = options.predefined;
  variables["CI"] = "true";
  variables["GITLAB_CI"] = "true";
  variables["CI_PROJECT_DIR"] = options.workspace.string();
  variables["CI_JOB_NAME"] = options.job;
  const int parallel = gitlab_parallel(job);
  if (parallel > 1) {
    if (options.node_index < 1 || options.node_index > parallel) {
      throw Unsupported(fmt::format("{}: parallel: {} needs --node-index 1..{}", where, parallel, parallel));
    }
    variables["CI_NODE_INDEX"] = std::to_string(options.node_index);
    variables["CI_NODE_TOTAL"] = std::to_string(parallel);
    variables["CI_JOB_NAME"] = fmt::format("{} {}/{}", options.job, options.node_index, parallel);
  }
  // GitLab's slug: lowercased, every other character than a-z and 0-9 a dash, 63 at most.
  std::string slug;
  for (const char c : lower(variables["CI_JOB_NAME"])) {
    slug += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '-';
  }
  variables["CI_JOB_NAME_SLUG"] = slug.substr(0, 63);
  Env yaml_variables;
  for (const auto& source : {pipeline["variables"], job["variables"]}) {
    if (source) {
      for (const auto& entry : source) {
        yaml_variables[entry.first.Scalar()] = variable_value(entry.second);
      }
    }
  }
  for (const auto& [name, value] : yaml_variables) {
    variables[name] = value;
  }
  for (const auto& [name, value] : options.project) {
    variables[name] = value;
  }

  std::string when = job["when"] ? job["when"].Scalar() : "on_success";
  YAML::Node allow_failure = job["allow_failure"];
  if (const auto rules = job["rules"]) {
    bool matched = false;
    for (const auto& rule : rules) {
      check_keys(rule, {"if", "when", "allow_failure", "variables"}, where + ": rules");
      if (rule["if"] && !RuleExpression(rule["if"].Scalar(), variables).evaluate()) {
        continue;
      }
      matched = true;
      when = rule["when"] ? rule["when"].Scalar() : when;
      allow_failure = rule["allow_failure"] ? rule["allow_failure"] : allow_failure;
      if (rule["variables"]) {
        for (const auto& entry : rule["variables"]) {
          variables[entry.first.Scalar()] = variable_value(entry.second);
        }
      }
      break;
    }
    if (!matched) {
      std::cout << fmt::format("ci_local: {}: not in this pipeline (no rule matched)\n", where);
      return k_not_run;
    }
  }
  if (when == "never" || when == "manual" || (when == "on_success" && options.previous_failed)) {
    std::cout << fmt::format("ci_local: {}: not run (when: {}{})\n", where, when,
                             options.previous_failed ? ", an earlier stage failed" : "");
    return k_not_run;
  }
  if (when != "on_success" && when != "always") {
    throw Unsupported(fmt::format("{}: when: {} is not supported by ci_local", where, when));
  }

  Env env = process_environment();
  for (const auto& [name, value] : variables) {
    env[name] = expand(value, variables);
  }

  std::vector<std::string> lines;
  if (options.replaced_before_script) {
    lines.push_back("bash -e " + options.replaced_before_script->string());
  } else {
    lines = script_lines(job["before_script"]);
  }
  const auto script = options.replaced_script
                          ? std::vector<std::string>{"bash -e " + options.replaced_script->string()}
                          : script_lines(job["script"]);
  if (script.empty()) {
    throw Unsupported(fmt::format("{}: no script", where));
  }
  lines.insert(lines.end(), script.begin(), script.end());
  for (const auto& line : lines) {
    if (reaches_network(line)) {
      throw Unsupported(
          fmt::format("{}: \"{}\" runs apt-get or git clone: give it a local equivalent "
                      "(--replace-before-script)",
                      where, line.substr(0, line.find('\n'))));
    }
  }
  // GitLab's order: the sources, the caches, the artifacts of the jobs it needs, the scripts.
  const auto caches = gitlab_caches(job["cache"], variables, where);
  if (options.cache_dir) {
    restore_caches(caches, *options.cache_dir, options.workspace);
  }
  for (const auto& artifacts : options.artifacts_in) {
    fs::copy(artifacts, options.workspace,
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  }
  const auto script_file = fs::temp_directory_path() / fmt::format("ci_local_{}_script.sh", getpid());
  std::ofstream(script_file) << shell_script(lines);
  std::cout << fmt::format("ci_local: {}: script\n", where);
  const int status = run({"/bin/bash", script_file.string()}, env, options.workspace);
  fs::remove(script_file);

  if (const auto after = script_lines(job["after_script"]); !after.empty()) {
    env["CI_JOB_STATUS"] = status == 0 ? "success" : "failed";
    const auto after_file = fs::temp_directory_path() / fmt::format("ci_local_{}_after.sh", getpid());
    std::ofstream(after_file) << shell_script(after);
    std::cout << fmt::format("ci_local: {}: after_script\n", where);
    // GitLab ignores an after_script's failure; the job's status is the script's.
    const int after_status = run({"/bin/bash", after_file.string()}, env, options.workspace);
    if (after_status != 0) {
      std::cout << fmt::format("ci_local: {}: after_script exited with {} (ignored)\n", where, after_status);
    }
    fs::remove(after_file);
  }

  if (options.cache_dir) {
    save_caches(caches, *options.cache_dir, options.workspace, status);
  }

  if (const auto artifacts = job["artifacts"]; artifacts && options.artifacts_out) {
    const auto artifacts_when = artifacts["when"] ? artifacts["when"].Scalar() : "on_success";
    if (artifacts_when == "always" || (artifacts_when == "on_success") == (status == 0)) {
      auto patterns = script_lines(artifacts["paths"]);
      if (artifacts["reports"]) {
        for (const auto& report : artifacts["reports"]) {
          const auto more = script_lines(report.second);
          patterns.insert(patterns.end(), more.begin(), more.end());
        }
      }
      copy_artifacts(patterns, options.workspace, *options.artifacts_out);
    }
  }

  if (status == 0) {
    std::cout << fmt::format("ci_local: {}: passed\n", where);
    return k_passed;
  }
  bool allowed = false;
  if (allow_failure && allow_failure.IsScalar()) {
    allowed = allow_failure.as<bool>();
  } else if (allow_failure && allow_failure["exit_codes"]) {
    const auto codes = allow_failure["exit_codes"];
    if (codes.IsScalar()) {
      allowed = codes.as<int>() == status;
    } else {
      for (const auto& code : codes) {
        allowed = allowed || code.as<int>() == status;
      }
    }
  }
  std::cout << fmt::format("ci_local: {}: {} (exit code {})\n", where,
                           allowed ? "passed with warnings" : "failed", status);
  return allowed ? k_allowed_failure : k_failed;
}

// Every shell script of `file`, each followed by a line "#--", for checks over all of them:
// GitHub steps' `run:` (a composite action's too), GitLab jobs' before_script, script and
// after_script lines.
void print_scripts(const fs::path& file) {
  const auto root = YAML::LoadFile(file.string());
  if (root["runs"] && root["runs"]["steps"]) {
    for (const auto& step : root["runs"]["steps"]) {
      if (step["run"]) {
        std::cout << step["run"].Scalar() << "\n#--\n";
      }
    }
    return;
  }
  if (root["jobs"]) {
    for (const auto& job : root["jobs"]) {
      for (const auto& step : job.second["steps"]) {
        if (step["run"]) {
          std::cout << step["run"].Scalar() << "\n#--\n";
        }
      }
    }
    return;
  }
  for (const auto& entry : root) {
    const auto name = entry.first.Scalar();
    const bool reserved =
        std::find(k_gitlab_reserved.begin(), k_gitlab_reserved.end(), name) != k_gitlab_reserved.end();
    if (reserved || !entry.second.IsMap()) {
      continue;
    }
    for (const auto* key : {"before_script", "script", "after_script"}) {
      for (const auto& line : script_lines(entry.second[key])) {
        std::cout << line << "\n#--\n";
      }
    }
  }
}

[[noreturn]] void usage(const std::string& what) {
  throw Unsupported(what + " (usage: see the comment at the top of tests/templates/ci_local.cpp)");
}

int main_of(const std::vector<std::string>& args) {
  if (args.size() == 2 && args[0] == "scripts") {
    print_scripts(args[1]);
    return k_passed;
  }
  if (args.size() < 3) {
    usage("too few arguments");
  }
  const auto& mode = args[0];
  std::size_t i = 3;
  const auto next = [&]() -> std::string {
    if (i + 1 >= args.size()) {
      usage(args[i] + " needs a value");
    }
    return args[++i];
  };
  if (mode == "github" || mode == "github-matrix") {
    GithubOptions options;
    options.workflow = args[1];
    options.job = args[2];
    options.temp = fs::temp_directory_path() / fmt::format("ci_local_{}", getpid());
    for (; i < args.size(); ++i) {
      const auto& option = args[i];
      if (option == "--event") {
        options.event = next();
      } else if (option == "--ctx") {
        auto [key, value] = split_assignment(next(), option);
        options.contexts[lower(key)] = value;
      } else if (option == "--secret") {
        auto [key, value] = split_assignment(next(), option);
        options.contexts["secrets." + lower(key)] = value;
      } else if (option == "--matrix") {
        auto [key, value] = split_assignment(next(), option);
        options.matrix[key] = value;
      } else if (option == "--needs") {
        options.needs_failed = next() != "success";
      } else if (option == "--workspace") {
        options.workspace = fs::absolute(next());
      } else if (option == "--temp") {
        options.temp = fs::absolute(next());
      } else if (option == "--env") {
        auto [key, value] = split_assignment(next(), option);
        options.env_overrides[key] = value;
      } else if (option == "--action") {
        auto [key, value] = split_assignment(next(), option);
        options.actions[key] = fs::absolute(value);
      } else if (option == "--replace") {
        auto [key, value] = split_assignment(next(), option);
        options.replaced_steps[key] = fs::absolute(value);
      } else {
        usage("unknown option " + option);
      }
    }
    if (mode == "github-matrix") {
      print_github_matrix(options);
      return k_passed;
    }
    return run_github_job(options);
  }
  if (mode == "gitlab" || mode == "gitlab-parallel") {
    GitlabOptions options;
    options.file = args[1];
    options.job = args[2];
    for (; i < args.size(); ++i) {
      const auto& option = args[i];
      if (option == "--var") {
        auto [key, value] = split_assignment(next(), option);
        options.predefined[key] = value;
      } else if (option == "--project-var") {
        auto [key, value] = split_assignment(next(), option);
        options.project[key] = value;
      } else if (option == "--node-index") {
        options.node_index = std::stoi(next());
      } else if (option == "--previous") {
        options.previous_failed = next() != "success";
      } else if (option == "--workspace") {
        options.workspace = fs::absolute(next());
      } else if (option == "--artifacts-in") {
        options.artifacts_in.push_back(fs::absolute(next()));
      } else if (option == "--artifacts-out") {
        options.artifacts_out = fs::absolute(next());
      } else if (option == "--replace-before-script") {
        options.replaced_before_script = fs::absolute(next());
      } else if (option == "--replace-script") {
        options.replaced_script = fs::absolute(next());
      } else if (option == "--cache-dir") {
        options.cache_dir = fs::absolute(next());
      } else if (option == "--include") {
        auto [key, value] = split_assignment(next(), option);
        options.includes[key] = fs::absolute(value);
      } else {
        usage("unknown option " + option);
      }
    }
    if (mode == "gitlab-parallel") {
      std::cout << gitlab_parallel(resolve_job(load_gitlab(options.file, options.includes), options.job))
                << "\n";
      return k_passed;
    }
    return run_gitlab_job(options);
  }
  usage("unknown mode " + mode);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return main_of(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const Unsupported& e) {
    std::cerr << "ci_local: error: " << e.what() << "\n";
    return k_unsupported;
  } catch (const YAML::Exception& e) {
    std::cerr << "ci_local: error: YAML: " << e.what() << "\n";
    return k_unsupported;
  } catch (const std::exception& e) {
    std::cerr << "ci_local: error: " << e.what() << "\n";
    return k_unsupported;
  }
}
