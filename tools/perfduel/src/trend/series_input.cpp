#include "trend/series_input.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "util/file.hpp"
#include "util/text.hpp"

namespace perfduel::trend {

namespace {

util::Expected<Series> parse_json_series(std::string_view text, std::string_view source) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return util::Expected<Series>::failure(fmt::format("{}: invalid JSON: {}", source, e.what()));
  }
  if (!document.is_array()) {
    return util::Expected<Series>::failure(
        fmt::format("{}: expected a JSON array of numbers or arrays of numbers", source));
  }
  Series series;
  for (std::size_t i = 0; i < document.size(); ++i) {
    const auto& item = document[i];
    if (item.is_number()) {
      series.push_back({item.get<double>()});
      continue;
    }
    if (item.is_array() && !item.empty()) {
      std::vector<double> run;
      for (const auto& sample : item) {
        if (!sample.is_number()) {
          return util::Expected<Series>::failure(
              fmt::format("{}: item {}: a run must hold only numbers, found {}", source, i, sample.dump()));
        }
        run.push_back(sample.get<double>());
      }
      series.push_back(std::move(run));
      continue;
    }
    return util::Expected<Series>::failure(fmt::format(
        "{}: item {}: expected a number or a non-empty array of numbers, found {}", source, i, item.dump()));
  }
  return series;
}

util::Expected<Series> parse_csv_series(std::string_view text, std::string_view source) {
  Series series;
  std::size_t line_number = 0;
  bool first_content = true;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_number;
    line = util::trim(line);
    if (line.empty() || line.front() == '#') {
      continue;
    }
    // Only the first column counts, so "value,commit" exports work too.
    const std::string_view field = util::trim(line.substr(0, line.find(',')));
    auto value = util::parse_double(field);
    if (!value) {
      if (first_content) {
        first_content = false;  // a header
        continue;
      }
      return util::Expected<Series>::failure(fmt::format("{}:{}: {}", source, line_number, value.error()));
    }
    first_content = false;
    series.push_back({*value});
  }
  return series;
}

}  // namespace

util::Expected<Series> parse_series(std::string_view text, std::string_view source) {
  const std::string_view content = util::trim(text);
  if (!content.empty() && content.front() == '[') {
    return parse_json_series(content, source);
  }
  return parse_csv_series(text, source);
}

util::Expected<Series> read_series(const std::filesystem::path& path) {
  const auto content = util::read_file(path);
  if (!content) {
    return util::Expected<Series>::failure(fmt::format("{}: cannot open the file", path.string()));
  }
  return parse_series(*content, path.string());
}

}  // namespace perfduel::trend
