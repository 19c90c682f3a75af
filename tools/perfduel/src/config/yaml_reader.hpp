#pragma once

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "util/name_table.hpp"
#include "util/text.hpp"

namespace perfduel::config {

// Where a value that YAML took for one of its indicators starts, and how to write it instead.
struct QuotingHint {
  int column = 0;  // 0-based, of the indicator
  std::string message;
};

// Reads one YAML document and reports problems as "<origin>:<line>: <message>", with a hint
// to quote a value that YAML took for one of its indicators ("%5", "&5").
class Reader {
 public:
  // `origin` names the document in messages; `text` is the document, to quote a value in a hint.
  Reader(std::string origin, const std::string& text);

  // Throws perfduel::Error with `message` at `node`'s line (or the quoting hint there).
  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const;

  // Fails unless `map` is a mapping whose keys are all in `allowed`, naming the closest one;
  // `where` names the mapping in messages ("the configuration", "metric \"score\"").
  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::string& where) const;

  // The text of the mapping key `node` in `where`; YAML also allows a list or a mapping as a key.
  std::string key(const YAML::Node& node, const std::string& where) const;

  // The single value `node` of `key`, as written.
  std::string scalar(const YAML::Node& node, const std::string& key) const;

  // The value of `key` when `value` holds one, else fails with its error.
  template <typename T>
  T unwrap(const YAML::Node& node, const std::string& key, util::Expected<T> value) const {
    if (!value) {
      fail(node, fmt::format("\"{}\": {}", key, value.error()));
    }
    return std::move(value).value();
  }

  // A number of `key` within [`min`, `max`].
  double number(const YAML::Node& node, const std::string& key, double min, double max) const;
  // A whole number of `key`, at least `min`.
  int integer(const YAML::Node& node, const std::string& key, int min) const;
  // A fraction of `key` ("2%" or 0.02) within [`min`, `max`].
  double fraction(const YAML::Node& node, const std::string& key, double min, double max) const;
  // A duration of `key` in seconds ("90", "1.5m", "250ms").
  double duration(const YAML::Node& node, const std::string& key) const;
  // true/yes/on or false/no/off.
  bool boolean(const YAML::Node& node, const std::string& key) const;

  // The value of `key` named in `names`.
  template <typename Enum, std::size_t N>
  Enum choice(const YAML::Node& node, const std::string& key, const util::NameTable<Enum, N>& names) const {
    const auto text = scalar(node, key);
    if (const auto value = util::value_of(names, text)) {
      return *value;
    }
    fail(node, fmt::format("\"{}\" must be one of {}, not \"{}\"", key, util::names_of(names), text));
  }

  const std::string& origin() const { return m_origin; }

 private:
  std::optional<QuotingHint> hint(const YAML::Node& node) const;
  void check_decoded(const YAML::Node& node, const std::string& what) const;

  std::string m_origin;
  std::vector<std::string> m_lines;
};

// The YAML document `text`. Throws perfduel::Error "<origin>:<line>: malformed YAML: ...", or
// with the quoting hint when the error is at a value that starts with an indicator, or when the
// text is not UTF-8 or holds a control character.
YAML::Node load_yaml(const std::string& text, const std::string& origin);

}  // namespace perfduel::config
