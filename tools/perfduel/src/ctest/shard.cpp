#include "ctest/shard.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace perfduel {

namespace {

using Gates = util::Expected<std::vector<std::string>>;

bool has_property(const nlohmann::json& test, std::string_view property) {
  if (!test.contains("properties") || !test["properties"].is_array()) {
    return false;
  }
  return std::any_of(test["properties"].begin(), test["properties"].end(), [&](const nlohmann::json& p) {
    return p.is_object() && p.value("name", "") == property;
  });
}

bool has_label(const nlohmann::json& test, const std::string& label) {
  for (const auto& property : test.value("properties", nlohmann::json::array())) {
    if (property.is_object() && property.value("name", "") == "LABELS" && property.contains("value") &&
        property["value"].is_array()) {
      for (const auto& value : property["value"]) {
        if (value.is_string() && value.get<std::string>() == label) {
          return true;
        }
      }
    }
  }
  return false;
}

}  // namespace

util::Expected<Shard> parse_shard(std::string_view text) {
  const auto fail = [&] {
    return util::Expected<Shard>::failure(fmt::format(
        "\"{}\" is not a shard: write K/N, this runner's number K from 1 to the count N (2/3)", text));
  };
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    return fail();
  }
  Shard shard;
  const auto read = [](std::string_view part, int& value) {
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    return error == std::errc() && end == part.data() + part.size();
  };
  if (!read(text.substr(0, slash), shard.index) || !read(text.substr(slash + 1), shard.count) ||
      shard.count < 1 || shard.index < 1 || shard.index > shard.count) {
    return fail();
  }
  return shard;
}

util::Expected<std::vector<std::string>> gate_tests(const std::string& ctest_json, const std::string& label) {
  const auto document = nlohmann::json::parse(ctest_json, nullptr, false);
  if (document.is_discarded() || !document.is_object()) {
    return Gates::failure("the input is not JSON (pipe in `ctest --test-dir BUILD -N --show-only=json-v1`)");
  }
  if (!document.contains("tests") || !document["tests"].is_array()) {
    return Gates::failure("the JSON has no \"tests\" array (is it `ctest --show-only=json-v1` output?)");
  }
  std::vector<std::string> gates;
  for (const auto& test : document["tests"]) {
    if (!test.is_object() || !test.contains("name") || !test["name"].is_string()) {
      return Gates::failure("a test in the JSON has no name");
    }
    if (has_label(test, label) && !has_property(test, "FIXTURES_SETUP")) {
      gates.push_back(test["name"].get<std::string>());
    }
  }
  std::sort(gates.begin(), gates.end());
  gates.erase(std::unique(gates.begin(), gates.end()), gates.end());
  return gates;
}

std::vector<std::string> gates_of_shard(const std::vector<std::string>& gates, Shard shard) {
  std::vector<std::string> mine;
  for (std::size_t i = static_cast<std::size_t>(shard.index - 1); i < gates.size();
       i += static_cast<std::size_t>(shard.count)) {
    mine.push_back(gates[i]);
  }
  return mine;
}

std::string exact_names_regex(const std::vector<std::string>& names) {
  if (names.empty()) {
    return "";
  }
  std::string regex = "^(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    regex += i == 0 ? "" : "|";
    for (const char c : names[i]) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) {
        regex += '\\';
      }
      regex += c;
    }
  }
  return regex + ")$";
}

}  // namespace perfduel
