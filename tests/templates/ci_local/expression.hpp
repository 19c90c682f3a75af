// GitHub Actions expressions: `${{ }}` substitution and `if:` conditions.
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "support.hpp"

namespace ci_local {

// https://docs.github.com/actions/learn-github-actions/expressions: literals, contexts,
// ! == != < <= > >= && || and a few functions; == compares strings without case, && and ||
// return an operand, not a boolean.

// The value of an expression: null, a boolean, a number or a string, converted as GitHub does.
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

// The state an expression is evaluated in.
struct ExpressionContext {
  std::map<std::string, std::string> values;  // "github.ref", "steps.shard.outputs.gates", ... lowercased
  bool job_failed = false;                    // for success() and failure()
};

// The value of expression `text` (without ${{ }}) in `context`.
Value evaluate(const std::string& text, const ExpressionContext& context);

// `text` with each ${{ expression }} replaced by its value, as GitHub does before a shell
// ever sees a `run:` script.
std::string interpolate(const std::string& text, const ExpressionContext& context);

// The value of an `if:` (a bare expression, or one wrapped in ${{ }}); without a status
// function, success() && (expression), as GitHub reads it.
bool condition(const YAML::Node& node, const ExpressionContext& context);

}  // namespace ci_local
