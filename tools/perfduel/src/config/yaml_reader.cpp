#include "config/yaml_reader.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "error.hpp"

namespace perfduel::config {

namespace {

// What YAML makes of a plain (unquoted) value that starts with one of its indicators, for
// the characters a number or a name of ours may start with: "%5" is a directive, "*5" an alias,
// "&5" an anchor (and an empty value), "!5" a tag, "|5" and ">5" a block of text on the
// following lines; "@" and "`" are reserved. Some are errors in YAML, the others read as an
// empty value, and the message that follows is about a value the user never wrote.
constexpr std::array<std::pair<char, const char*>, 8> k_indicator_readings{{
    {'%', "a directive"},
    {'*', "an alias of an anchor"},
    {'&', "an anchor"},
    {'@', "a reserved indicator"},
    {'`', "a reserved indicator"},
    {'!', "a tag"},
    {'|', "the start of a literal block"},
    {'>', "the start of a folded block"},
}};

// `value` in quotes that YAML reads back as `value`.
std::string yaml_quoted(const std::string& value) {
  if (value.find_first_of("\"\\") == std::string::npos) {
    return fmt::format("\"{}\"", value);
  }
  if (value.find('\'') == std::string::npos) {
    return fmt::format("'{}'", value);
  }
  std::string escaped;
  for (const char c : value) {
    escaped += c == '"' || c == '\\' ? std::string{'\\', c} : std::string{c};
  }
  return fmt::format("\"{}\"", escaped);
}

// Where the indicator may be: at the mark (a node's mark is its start), or up to it (a syntax
// error may be found further into the value: "| 5", "*,").
enum class IndicatorAt { mark, up_to_mark };

// The hint for a value on line `line` of `lines` (0-based) that starts with a YAML indicator
// at `column`, or before it (`where`): `value starting with "%" must be quoted (write
// threshold: "%5"; ...)`. Nothing when no plain value starts with an indicator there.
std::optional<QuotingHint> quoting_hint(const std::vector<std::string>& lines, int line, int column,
                                        IndicatorAt where) {
  if (line < 0 || static_cast<std::size_t>(line) >= lines.size() || column < 0) {
    return std::nullopt;
  }
  const std::string& text = lines[static_cast<std::size_t>(line)];
  const auto reading_of = [](char c) -> const char* {
    for (const auto& [indicator, reading] : k_indicator_readings) {
      if (c == indicator) {
        return reading;
      }
    }
    return nullptr;
  };
  // The character before the value: ':' or '-' in block context, '[', '{' or ',' in flow.
  const auto context_before = [&](std::size_t at) -> char {
    const auto before = text.find_last_not_of(" \t", at == 0 ? std::string::npos : at - 1);
    return at == 0 || before == std::string::npos ? '\0' : text[before];
  };
  const auto is_value_start = [&](std::size_t at) {
    const char before = context_before(at);
    return at < text.size() && reading_of(text[at]) != nullptr &&
           std::string_view(":-[{,").find(before) != std::string_view::npos && before != '\0';
  };
  auto start = std::min(static_cast<std::size_t>(column), text.size());
  while (!is_value_start(start)) {
    if (start == 0 || where == IndicatorAt::mark) {
      return std::nullopt;
    }
    --start;
  }
  const char before = context_before(start);
  // Inside a flow collection ("{unit: %}", "[a, %b]") the value ends at the next ',', ']' or '}'.
  int depth = 0;
  for (std::size_t i = 0; i < start; ++i) {
    depth += text[i] == '[' || text[i] == '{' ? 1 : text[i] == ']' || text[i] == '}' ? -1 : 0;
  }
  const bool flow = depth > 0;
  auto end = flow ? text.find_first_of(",]}", start) : text.find(" #", start);
  const std::string value(
      util::trim(text.substr(start, end == std::string::npos ? std::string::npos : end - start)));
  std::string example = yaml_quoted(value);
  if (before == ':') {
    const auto key_end = text.rfind(':', start);
    const auto key_start = flow ? text.find_last_of("{,", key_end) + 1 : text.find_first_not_of(' ');
    example = fmt::format("{}: {}", util::trim(text.substr(key_start, key_end - key_start)), example);
  } else if (before == '-') {
    example = "- " + example;
  }
  return QuotingHint{
      static_cast<int>(start),
      fmt::format("value starting with \"{0}\" must be quoted (write {1}; YAML reads an unquoted "
                  "\"{0}\" as {2})",
                  text[start], example, reading_of(text[start]))};
}

// YAML is printable Unicode text, and the configuration is copied into the JSON report, which
// must be UTF-8. yaml-cpp takes any bytes and turns a NUL into bytes that are not UTF-8.
void check_characters(const std::string& text, const std::string& origin) {
  const auto line_of = [&](std::size_t offset) {
    return std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n') + 1;
  };
  if (const auto offset = util::invalid_utf8_offset(text)) {
    throw Error(fmt::format("{}:{}: not valid UTF-8 (byte {}); save the file as UTF-8", origin,
                            line_of(*offset), *offset + 1));
  }
  const auto control = std::find_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == '\x7f';
  });
  if (control != text.end()) {
    const auto offset = static_cast<std::size_t>(control - text.begin());
    throw Error(
        fmt::format("{}:{}: control character 0x{:02X} (byte {}); YAML allows only tabs, line breaks and "
                    "printable text",
                    origin, line_of(offset), static_cast<unsigned char>(*control), offset + 1));
  }
}

}  // namespace

Reader::Reader(std::string origin, const std::string& text)
    : m_origin(std::move(origin)), m_lines(util::split_lines(text)) {}

void Reader::fail(const YAML::Node& node, const std::string& message) const {
  const auto mark = node.Mark();
  if (mark.is_null()) {
    throw Error(fmt::format("{}: {}", m_origin, message));
  }
  if (const auto quoting = hint(node)) {
    throw Error(fmt::format("{}:{}:{}: {}", m_origin, mark.line + 1, quoting->column + 1, quoting->message));
  }
  throw Error(fmt::format("{}:{}: {}", m_origin, mark.line + 1, message));
}

// The quoting hint for an empty value where the file has text: YAML took the text for an
// indicator ("&5" is an anchor and no value).
std::optional<QuotingHint> Reader::hint(const YAML::Node& node) const {
  const auto mark = node.Mark();
  if (mark.is_null() || !(node.IsNull() || (node.IsScalar() && node.Scalar().empty()))) {
    return std::nullopt;
  }
  return quoting_hint(m_lines, mark.line, mark.column, IndicatorAt::mark);
}

void Reader::check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                        const std::string& where) const {
  if (!map.IsMap()) {
    fail(map, fmt::format("{} must be a mapping of keys to values", where));
  }
  for (const auto& item : map) {
    const auto name = key(item.first, where);
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) {
      continue;
    }
    const auto suggestion = util::closest_match(name, allowed);
    fail(item.first, suggestion ? fmt::format("unknown key \"{}\" (did you mean \"{}\"?)", name, *suggestion)
                                : fmt::format("unknown key \"{}\" in {}", name, where));
  }
}

// The text of the mapping key `node` in `where`; YAML also allows a list or a mapping as a key.
std::string Reader::key(const YAML::Node& node, const std::string& where) const {
  if (!node.IsScalar()) {
    fail(node, fmt::format("a key in {} must be a plain name, not a list or mapping", where));
  }
  check_decoded(node, "a key in " + where);
  return node.Scalar();
}

std::string Reader::scalar(const YAML::Node& node, const std::string& key) const {
  if (!node.IsScalar()) {
    fail(node, fmt::format("\"{}\" must be a single value", key));
  }
  if (node.Scalar().empty() && hint(node)) {
    fail(node, "");  // "!5", "|5": text the user wrote, read as an empty value
  }
  check_decoded(node, "\"" + key + "\"");
  return node.Scalar();
}

// The file is UTF-8 (check_characters), but yaml-cpp decodes some escapes of a double-quoted
// value ("\_", "\N", "\L", "\P") to single bytes that are not: refused here, or the report
// that copies the configuration could not be written.
void Reader::check_decoded(const YAML::Node& node, const std::string& what) const {
  if (util::invalid_utf8_offset(node.Scalar())) {
    fail(node, fmt::format("{} is not UTF-8 once its escapes are decoded; write the character itself or "
                           "\\u followed by its code (\\u00A0 for \\_)",
                           what));
  }
}

double Reader::number(const YAML::Node& node, const std::string& key, double min, double max) const {
  const double value = unwrap(node, key, util::parse_double(scalar(node, key)));
  if (value < min || value > max) {
    fail(node, fmt::format("\"{}\" must be between {} and {}, not {}", key, min, max, value));
  }
  return value;
}

int Reader::integer(const YAML::Node& node, const std::string& key, int min) const {
  const double value = number(node, key, min, 1e9);
  if (value != static_cast<double>(static_cast<int>(value))) {
    fail(node, fmt::format("\"{}\" must be a whole number, not {}", key, value));
  }
  return static_cast<int>(value);
}

double Reader::fraction(const YAML::Node& node, const std::string& key, double min, double max) const {
  const double value = unwrap(node, key, util::parse_fraction(scalar(node, key)));
  if (value < min || value > max) {
    fail(node, fmt::format("\"{}\" must be between {} and {}, not {}", key, util::format_percent(min),
                           util::format_percent(max), scalar(node, key)));
  }
  return value;
}

double Reader::duration(const YAML::Node& node, const std::string& key) const {
  return unwrap(node, key, util::parse_duration(scalar(node, key)));
}

bool Reader::boolean(const YAML::Node& node, const std::string& key) const {
  const auto text = scalar(node, key);
  if (text == "true" || text == "yes" || text == "on") {
    return true;
  }
  if (text == "false" || text == "no" || text == "off") {
    return false;
  }
  fail(node, fmt::format("\"{}\" must be true or false, not \"{}\"", key, text));
}

YAML::Node load_yaml(const std::string& text, const std::string& origin) {
  check_characters(text, origin);
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    if (const auto hint =
            quoting_hint(util::split_lines(text), e.mark.line, e.mark.column, IndicatorAt::up_to_mark)) {
      throw Error(fmt::format("{}:{}:{}: {}", origin, e.mark.line + 1, hint->column + 1, hint->message));
    }
    throw Error(fmt::format("{}:{}: malformed YAML: {}", origin, e.mark.line + 1, e.msg));
  }
}

}  // namespace perfduel::config
