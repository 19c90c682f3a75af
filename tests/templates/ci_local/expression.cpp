#include "expression.hpp"

#include <cctype>
#include <regex>
#include <string_view>
#include <utility>

namespace ci_local {

namespace {

bool loosely_equal(const Value& a, const Value& b) {
  if (a.kind == Value::Kind::string && b.kind == Value::Kind::string) {
    return lower(a.string) == lower(b.string);
  }
  if (a.kind == Value::Kind::null && b.kind == Value::Kind::null) {
    return true;
  }
  return a.to_number() == b.to_number();
}

class Expression : public ExpressionScanner {
 public:
  Expression(std::string text, const ExpressionContext& context)
      : ExpressionScanner(std::move(text), "expression"), m_context(context) {}

  Value evaluate() {
    auto value = parse_or();
    skip_blanks();
    if (m_pos != m_text.size()) {
      fail("unexpected text");
    }
    return value;
  }

 private:
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

  const ExpressionContext& m_context;
};

}  // namespace

Value evaluate(const std::string& text, const ExpressionContext& context) {
  return Expression(text, context).evaluate();
}

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

}  // namespace ci_local
