// The table of configuration keys (config/keys.cpp) against what the configuration does: each
// row's default is the default, and each row's rule is what a re-analysis does with the key.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "config/keys.hpp"
#include "support/config_helpers.hpp"

using namespace perfduel;
using perfduel::testing::metric;

namespace {

// Another value than the report's (saved_config) for every key that has a value.
const std::map<std::string, std::string> k_other_values{{"confidence", "99%"},
                                                        {"warmup", "3"},
                                                        {"detect_warmup", "true"},
                                                        {"min_rounds", "10"},
                                                        {"max_rounds", "100"},
                                                        {"max_seconds", "60"},
                                                        {"timeout", "5s"},
                                                        {"retries", "2"},
                                                        {"cpus", "2-3"},
                                                        {"order", "abba"},
                                                        {"env_padding", "false"},
                                                        {"identical_programs", "measure"},
                                                        {"seed", "8"},
                                                        {"stopping", "anytime"},
                                                        {"correction", "holm"},
                                                        {"inconclusive", "fail"},
                                                        {"autocorrelation_limit", "0.3"},
                                                        {"min_batches", "10"},
                                                        {"best_of", "5"},
                                                        {"stability_limit", "5%"},
                                                        {"explain", "always"},
                                                        {"threshold", "5%"},
                                                        {"tolerance", "3%"},
                                                        {"gate", "false"},
                                                        {"direction", "higher"},
                                                        {"estimator", "median"},
                                                        {"unit", "ms"},
                                                        {"zeros", "allowed"},
                                                        {"field", "cpu_time"},
                                                        {"missing", "error"},
                                                        {"repetitions", "best"}};

// A report's configuration: two gated metrics (so that either may stop gating), a Google
// Benchmark one for the keys that apply to those only.
Config saved_config() {
  return parse_config(
      "seed: 7\n"
      "metrics:\n"
      "  score: {regex: 'score: ([0-9.]+)', threshold: 20%}\n"
      "  gb: {google_benchmark: BM_x, gate: false}\n",
      "report.json (config)");
}

// Whether a metric key applies to a suite's benchmarks only (Google Benchmark, Catch2).
bool suite_key(std::string_view key) {
  return key == "field" || key == "missing" || key == "repetitions";
}

// The metric a metric key is set on in these tests: the suite keys need a suite source.
std::string metric_for(std::string_view key) {
  return suite_key(key) ? "gb" : "score";
}

std::string other_value(std::string_view key) {
  const auto value = k_other_values.find(std::string(key));
  REQUIRE(value != k_other_values.end());
  return value->second;
}

}  // namespace

TEST_CASE("the table names every key once, each with its help", "[config][keys]") {
  std::vector<std::string> names;
  const auto add = [&](const auto& keys) {
    for (const auto& key : keys) {
      INFO(key.name);
      names.emplace_back(key.name);
      CHECK_FALSE(key.help.empty());
      if (key.structural()) {
        CHECK(key.shown_default.empty());  // what it holds is the dedicated code's to say
      }
    }
  };
  add(config::top_level_keys());
  add(config::command_keys());
  add(config::metric_keys());
  std::sort(names.begin(), names.end());
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
}

TEST_CASE("every top-level key's default is default_config()'s", "[config][keys]") {
  const Config defaults = default_config();
  for (const auto& key : config::top_level_keys()) {
    if (key.shown_default.empty()) {
      continue;
    }
    INFO(key.name << ": " << key.shown_default);
    const Config config = parse_config(fmt::format("{}: {}\n", key.name, key.shown_default), "gate.yaml");
    CHECK(key.value.same(config, defaults));
    CHECK(config::key_text(key, config) == config::key_text(key, defaults));
  }
}

TEST_CASE("every metric key's default is a metric's own", "[config][keys]") {
  const auto entry = [](std::string_view key, const std::string& setting) {
    return parse_config(
        fmt::format("metrics:\n  m: {{{}{}}}\n",
                    suite_key(key) ? "google_benchmark: BM_x, " : "regex: '([0-9]+)', ", setting),
        "gate.yaml");
  };
  for (const auto& key : config::metric_keys()) {
    if (key.shown_default.empty()) {
      continue;
    }
    INFO(key.name << ": " << key.shown_default);
    const Config given = entry(key.name, fmt::format("{}: {}", key.name, key.shown_default));
    const Config defaults = entry(key.name, "");
    CHECK(key.value.same(metric(given, "m"), metric(defaults, "m")));
  }
}

TEST_CASE("a re-analysis applies every key that decides, and says so", "[config][keys][reanalysis]") {
  const Config saved = saved_config();
  for (const auto& key : config::top_level_keys()) {
    if (key.structural() || key.reanalysis != config::Reanalysis::decides) {
      continue;
    }
    INFO(key.name);
    Config config = saved;
    CHECK(apply_reanalysis_settings(config, fmt::format("{}: {}\n", key.name, other_value(key.name)),
                                    "other.yaml")
              .empty());
    CHECK_FALSE(key.value.same(config, saved));
    const auto changes = settings_changes(saved, config);
    REQUIRE(changes.size() == 1);
    CHECK(changes.front() == fmt::format("{} {} (was {})", key.name, config::key_text(key, config),
                                         config::key_text(key, saved)));
  }
  for (const auto& key : config::metric_keys()) {
    if (key.structural() || key.reanalysis != config::Reanalysis::decides) {
      continue;
    }
    INFO(key.name);
    const auto name = metric_for(key.name);
    Config config = saved;
    apply_reanalysis_setting(config, std::string(key.name), name, other_value(key.name), "--setting");
    CHECK_FALSE(key.value.same(metric(config, name), metric(saved, name)));
    const auto changes = settings_changes(saved, config);
    CHECK(std::find_if(changes.begin(), changes.end(), [&](const std::string& change) {
            return change.starts_with(fmt::format("{}: {} ", name, key.name));
          }) != changes.end());
  }
}

TEST_CASE("a re-analysis refuses every key that made the runs, naming the report's value",
          "[config][keys][reanalysis]") {
  const Config saved = saved_config();
  for (const auto& key : config::top_level_keys()) {
    if (key.structural() || key.reanalysis != config::Reanalysis::made_the_runs) {
      continue;
    }
    INFO(key.name);
    Config config = saved;
    CHECK_THROWS_WITH(
        apply_reanalysis_settings(config, fmt::format("{}: {}\n", key.name, other_value(key.name)),
                                  "other.yaml"),
        fmt::format(
            "other.yaml:1: \"{}\" cannot change in a re-analysis: the report's runs were made with {} "
            "(remove the key, or run a new duel)",
            key.name, config::key_text(key, saved)));
  }
  for (const auto& key : config::metric_keys()) {
    if (key.structural() || key.reanalysis != config::Reanalysis::made_the_runs) {
      continue;
    }
    INFO(key.name);
    Config config = saved;
    CHECK_THROWS_WITH(apply_reanalysis_setting(config, std::string(key.name), metric_for(key.name),
                                               other_value(key.name), "--setting"),
                      Catch::StartsWith(fmt::format("--setting: the source of metric \"{}\" cannot change",
                                                    metric_for(key.name))));
  }
}

TEST_CASE("a re-analysis ignores every budget and names it", "[config][keys][reanalysis]") {
  const Config saved = saved_config();
  for (const auto& key : config::top_level_keys()) {
    if (key.structural() || key.reanalysis != config::Reanalysis::budget) {
      continue;
    }
    INFO(key.name);
    Config config = saved;
    CHECK(apply_reanalysis_settings(config, fmt::format("{}: {}\n", key.name, other_value(key.name)),
                                    "other.yaml") == std::vector<std::string>{std::string(key.name)});
    CHECK(key.value.same(config, saved));
    CHECK(settings_changes(saved, config).empty());
  }
}

TEST_CASE("a re-analysis ignores what only a pattern's expansion used", "[config][keys][reanalysis]") {
  const Config saved = saved_config();
  for (const auto& key : config::metric_keys()) {
    if (key.reanalysis != config::Reanalysis::expansion) {
      continue;
    }
    INFO(key.name);
    Config config = saved;
    CHECK_NOTHROW(
        apply_reanalysis_setting(config, std::string(key.name), "gb", other_value(key.name), "--setting"));
    CHECK(key.value.same(metric(config, "gb"), metric(saved, "gb")));
  }
}

TEST_CASE("config_to_json writes the keys with a value in the table's order", "[config][keys]") {
  const auto json = nlohmann::ordered_json::parse(config_to_json(saved_config()));
  std::vector<std::string> written;
  for (const auto& [name, value] : json.items()) {
    written.push_back(name);
  }
  std::vector<std::string> table;
  for (const auto& key : config::top_level_keys()) {
    if (!key.structural()) {
      table.emplace_back(key.name);
    }
  }
  table.emplace_back("metrics");  // written last, by its own code
  CHECK(written == table);
}
