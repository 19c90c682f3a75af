#include "gitlab_pipeline.hpp"

#include <cctype>
#include <optional>
#include <regex>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace ci_local {

const std::vector<std::string> k_gitlab_reserved{"stages",   "variables",     "default",     "include",
                                                 "workflow", "image",         "services",    "cache",
                                                 "spec",     "before_script", "after_script"};

namespace {

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

// A GitLab `rules: if:` expression: $VARIABLE, "string", /regex/, null, == != =~ !~ && ||
// and parentheses (https://docs.gitlab.com/ci/jobs/job_rules/#cicd-variable-expressions).
class RuleExpression : public ExpressionScanner {
 public:
  RuleExpression(std::string text, const Env& variables)
      : ExpressionScanner(std::move(text), "rules: if:"), m_variables(variables) {}

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

  const Env& m_variables;
};

}  // namespace

YAML::Node resolve_job(const YAML::Node& pipeline, const std::string& name, int depth) {
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
std::string expand(const std::string& text, const Env& variables, int depth) {
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

bool rule_matches(const std::string& text, const Env& variables) {
  return RuleExpression(text, variables).evaluate();
}

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
YAML::Node load_gitlab(const fs::path& file, const std::map<std::string, fs::path>& includes, int depth) {
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

}  // namespace ci_local
