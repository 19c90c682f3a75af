#include "report_format/saved_report.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "config/names.hpp"
#include "error.hpp"
#include "report_format/report_fields.hpp"
#include "util/file.hpp"

namespace perfduel {

namespace {

using Json = nlohmann::ordered_json;

// What `json` recorded, leniently, all but its runs (each reader reads those its own way, once).
SavedReport recorded_results(const Json& json) {
  SavedReport report;
  report.text = json.dump(-1, ' ', false, Json::error_handler_t::replace);
  report_field::read_fields(report_field::report_fields(), json, report);
  return report;
}

}  // namespace

SavedReport report_from_json_lenient(const Json& json) {
  SavedReport report = recorded_results(json);
  const auto& runs = report_field::member_of(json, "runs");
  for (const auto& item : runs.is_array() ? runs : Json::array()) {
    report_field::NamedRun run{{}, report.value_names};
    if (report_field::read_fields(report_field::run_fields(), item, run)) {
      report.runs.push_back(std::move(run.run));
    }
  }
  return report;
}

nlohmann::ordered_json read_report_json(const std::filesystem::path& path) {
  const auto text = util::read_file(path);
  if (!text) {
    throw Error(fmt::format("{}: cannot read the report", path.string()));
  }
  // Ordered, so that the metrics keep the order they were measured and reported in.
  auto json = Json::parse(*text, nullptr, false);
  if (json.is_discarded()) {
    throw Error(fmt::format("{}: not valid JSON (write the report with `perfduel compare --json FILE`)",
                            path.string()));
  }
  return json;
}

namespace {

// The runs of `json`, strictly: each with a known side and every value of `names` (the
// configuration's metrics).
std::vector<RunRecord> strict_runs(const Json& json, const std::vector<std::string>& names,
                                   const std::string& origin) {
  std::vector<RunRecord> runs;
  for (const auto& item : json["runs"]) {
    report_field::NamedRun run{{}, names};
    try {
      report_field::read_fields_strict(report_field::run_fields(), item, run);
    } catch (const report_field::UnknownName& e) {
      throw Error(fmt::format("{}: run {} has an {}", origin, runs.size() + 1, e.what()));
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("{}: run {} is malformed: {}", origin, runs.size() + 1, e.what()));
    }
    runs.push_back(std::move(run.run));
  }
  return runs;
}

SavedReport read_report(const Json& json, const std::string& origin) {
  if (!json.is_object()) {
    throw Error(fmt::format("{}: not a JSON report (is it the file written by compare --json?)", origin));
  }
  for (const char* key : {"config", "runs"}) {
    if (!json.contains(key)) {
      throw Error(fmt::format("{}: the report has no \"{}\"; it was not written by perfduel compare --json",
                              origin, key));
    }
  }
  SavedReport report = recorded_results(json);
  // The config section uses the YAML file's keys, and JSON is YAML, so the one parser reads both.
  report.config = parse_config(json["config"].dump(), origin + " (config)");
  if (!util::value_of(k_duel_end_names, report.end_name)) {
    throw Error(fmt::format("{}: unknown \"end\" \"{}\" (one of {})", origin, report.end_name,
                            util::names_of(k_duel_end_names)));
  }
  if (const auto& compared = report_field::member_of(report_field::member_of(json, "programs"), "compared");
      compared.is_string() && !util::value_of(k_programs_compared_names, compared.get<std::string>())) {
    throw Error(fmt::format("{}: unknown \"programs\" \"compared\" \"{}\" (one of {})", origin,
                            compared.get<std::string>(), util::names_of(k_programs_compared_names)));
  }
  report.value_names.clear();
  for (const auto& metric : report.config.metrics) {
    report.value_names.push_back(metric.name);
  }
  report.runs = strict_runs(json, report.value_names, origin);
  return report;
}

}  // namespace

SavedReport report_from_json_strict(const Json& json, const std::string& origin) {
  try {
    return read_report(json, origin);
  } catch (const nlohmann::json::exception& e) {
    // A section of the wrong type, e.g. "runs": {"new": "x"}.
    throw Error(fmt::format("{}: the report is malformed: {}", origin, e.what()));
  }
}

SavedReport load_report_strict(const std::filesystem::path& path) {
  return report_from_json_strict(read_report_json(path), path.string());
}

SavedReport load_report_lenient(const std::filesystem::path& path) {
  return report_from_json_lenient(read_report_json(path));
}

double run_value(const SavedReport& report, const RunRecord& run, const std::string& metric) {
  for (std::size_t m = 0; m < report.value_names.size() && m < run.values.size(); ++m) {
    if (report.value_names[m] == metric) {
      return run.values[m];
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace perfduel
