#include "ci/shard.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace perfduel {

namespace {

constexpr int k_max_shards = 10000;
constexpr std::string_view k_special = "^$.[]()|*+?\\";

// A whole number of 1 to 5 digits, or nothing.
std::optional<int> small_number(std::string_view text) {
  if (text.empty() || text.size() > 5 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return std::nullopt;
  }
  int value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

bool has_property(const nlohmann::json& test, std::string_view property) {
  const auto it = test.find("properties");
  if (it == test.end() || !it->is_array()) {
    return false;
  }
  return std::any_of(it->begin(), it->end(), [&](const nlohmann::json& p) {
    return p.is_object() && p.value("name", std::string()) == property;
  });
}

bool has_label(const nlohmann::json& test, std::string_view label) {
  const auto it = test.find("properties");
  if (it == test.end() || !it->is_array()) {
    return false;
  }
  for (const auto& property : *it) {
    if (!property.is_object() || property.value("name", std::string()) != "LABELS") {
      continue;
    }
    const auto value = property.find("value");
    if (value == property.end()) {
      continue;
    }
    // CTest writes a list; one label may come as a plain string from other writers.
    if (value->is_string()) {
      return value->get<std::string>() == label;
    }
    if (value->is_array()) {
      return std::any_of(value->begin(), value->end(),
                         [&](const nlohmann::json& l) { return l.is_string() && l.get<std::string>() == label; });
    }
  }
  return false;
}

}  // namespace

util::Expected<Shard> parse_shard(std::string_view text) {
  const auto expected = "expected K/N, shard K of N with 1 <= K <= N, such as 1/2";
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    return util::Expected<Shard>::failure(fmt::format("\"{}\": no \"/\" ({})", text, expected));
  }
  const auto index = small_number(text.substr(0, slash));
  const auto count = small_number(text.substr(slash + 1));
  if (!index || !count) {
    return util::Expected<Shard>::failure(fmt::format("\"{}\": not two whole numbers ({})", text, expected));
  }
  if (*count < 1 || *count > k_max_shards) {
    return util::Expected<Shard>::failure(
        fmt::format("\"{}\": {} shards; expected 1 to {} ({})", text, *count, k_max_shards, expected));
  }
  if (*index < 1 || *index > *count) {
    return util::Expected<Shard>::failure(
        fmt::format("\"{}\": there is no shard {} of {} ({})", text, *index, *count, expected));
  }
  return Shard{*index, *count};
}

util::Expected<std::vector<std::string>> perf_gates(std::string_view json, std::string_view label) {
  using Result = util::Expected<std::vector<std::string>>;
  const auto listing = nlohmann::json::parse(json, nullptr, false);
  if (listing.is_discarded()) {
    return Result::failure("not JSON (expected the output of ctest --show-only=json-v1)");
  }
  if (!listing.is_object() || !listing.contains("tests") || !listing["tests"].is_array()) {
    return Result::failure("no \"tests\" list (expected the output of ctest --show-only=json-v1)");
  }
  std::vector<std::string> gates;
  for (const auto& test : listing["tests"]) {
    if (!test.is_object() || !test.contains("name") || !test["name"].is_string()) {
      return Result::failure("a test without a \"name\" (expected the output of ctest --show-only=json-v1)");
    }
    // A fixture's setup or cleanup goes wherever a test that requires it goes; sharding it
    // too would run it on a job that has none of its gates, or twice.
    if (has_label(test, label) && !has_property(test, "FIXTURES_SETUP") && !has_property(test, "FIXTURES_CLEANUP")) {
      gates.push_back(test["name"].get<std::string>());
    }
  }
  return gates;
}

std::vector<std::string> gates_of_shard(std::vector<std::string> gates, Shard shard) {
  // By name, not by CTest's number: the numbers shift when a test of any other label is added
  // or moved, the names do not. Round robin, not contiguous blocks: gates next to each other
  // in name often share a benchmark program and cost alike, and interleaving spreads them.
  // Not by a hash of the name, which would be stable as gates come and go but can leave one
  // shard with most of them (5 gates on 2 shards: 1 time in 16 all on one); nothing needs
  // that stability, as each pipeline splits its own build's gates and the summary merges
  // whatever reports come back.
  std::sort(gates.begin(), gates.end());
  gates.erase(std::unique(gates.begin(), gates.end()), gates.end());
  std::vector<std::string> mine;
  for (std::size_t i = static_cast<std::size_t>(shard.index - 1); i < gates.size();
       i += static_cast<std::size_t>(shard.count)) {
    mine.push_back(gates[i]);
  }
  return mine;
}

std::string exact_names_regex(const std::vector<std::string>& names) {
  if (names.empty()) {
    return "^$";
  }
  std::string regex = "^(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    regex += i == 0 ? "" : "|";
    for (const char c : names[i]) {
      // The characters special to CMake's regular expressions (cmsys: no braces, no classes
      // like \d); "\x" is the character x for any x.
      if (k_special.find(c) != std::string_view::npos) {
        regex += '\\';
      }
      regex += c;
    }
  }
  return regex + ")$";
}

}  // namespace perfduel
