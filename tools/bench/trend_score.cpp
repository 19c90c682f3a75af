// Scores predicted change points against labelled series, beside the published methods.
// Not a test of its own: tools/bench/trend_score.sh runs `perfduel trend` over the series
// and hands its predictions here.
//
//   perfduel_trend_score PREDICTIONS.json --data DIR [--json OUT]
//
// PREDICTIONS.json maps series names to change points ({"nile": [28]}); DIR holds the
// series files ({"name", "source", "values", "change_points": {annotator: [...]}}, and for
// Perfherder series "perfherder_alerts") and reference_scores.json. Prints per series and
// per source the F1 (margin 5) and cover of the predictions and of the reference methods'
// default settings, and the means over the series scored.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "trend/scoring.hpp"

namespace {

namespace fs = std::filesystem;
using perfduel::trend::ChangePoints;

// The reference methods shown beside the predictions, by source. For the Firefox series:
// Perfherder's own alerts (mozilla), MongoDB's E-divisive means (mongodb) and binseg where
// REALISE ran them (5 of the 8 series; their means are over those), and no change (zero).
const std::vector<std::string> k_tcpd_methods{"binseg", "pelt", "bocpd", "ecp", "zero"};
const std::vector<std::string> k_perfherder_methods{"mozilla", "mongodb", "binseg", "zero"};

struct Series {
  std::string name;
  std::string source;
  std::size_t length = 0;
  std::vector<ChangePoints> annotations;
  std::optional<ChangePoints> perfherder_alerts;
};

struct Score {
  double f1 = 0.0;
  double cover = 0.0;
};

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error(fmt::format("{}: cannot read the file", path.string()));
  }
  return nlohmann::json::parse(in);
}

std::map<std::string, Series> read_series(const fs::path& folder) {
  std::map<std::string, Series> all;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".json" || entry.path().filename() == "reference_scores.json") {
      continue;
    }
    const nlohmann::json file = read_json(entry.path());
    if (!file.is_object() || !file.contains("values")) {
      continue;
    }
    Series s;
    s.name = file.at("name").get<std::string>();
    s.source = file.value("source", "?");
    s.length = file.at("values").size();
    for (const auto& [annotator, points] : file.at("change_points").items()) {
      s.annotations.push_back(points.get<ChangePoints>());
    }
    if (file.contains("perfherder_alerts")) {
      s.perfherder_alerts = file.at("perfherder_alerts").get<ChangePoints>();
    }
    all.emplace(s.name, std::move(s));
  }
  return all;
}

Score score(const Series& s, const ChangePoints& predicted) {
  return Score{perfduel::trend::f1_score(s.annotations, predicted).f1,
               perfduel::trend::covering(s.annotations, predicted, s.length)};
}

// A reference method's default score on `s`: from reference_scores.json, or for Perfherder's
// own alerts scored here.
std::optional<Score> reference(const nlohmann::json& references, const Series& s, const std::string& method) {
  if (method == "mozilla") {
    return s.perfherder_alerts ? std::optional<Score>(score(s, *s.perfherder_alerts)) : std::nullopt;
  }
  const auto& methods = references.at("series").at(s.name).at("methods");
  if (!methods.contains(method) || methods.at(method).is_null()) {
    return std::nullopt;
  }
  const auto& d = methods.at(method).at("default");
  if (d.is_null() || d.at("f1").is_null() || d.at("cover").is_null()) {
    return std::nullopt;
  }
  return Score{d.at("f1").get<double>(), d.at("cover").get<double>()};
}

std::string cell(const std::optional<Score>& s) {
  return s ? fmt::format("{:5.3f} {:5.3f}", s->f1, s->cover) : fmt::format("{:>11}", "-");
}

// Sums of the scores of one column over the series of one source.
struct Mean {
  double f1 = 0.0;
  double cover = 0.0;
  int count = 0;
  void add(const std::optional<Score>& s) {
    if (s) {
      f1 += s->f1;
      cover += s->cover;
      ++count;
    }
  }
  std::string text() const {
    return count > 0 ? fmt::format("{:5.3f} {:5.3f}", f1 / count, cover / count) : fmt::format("{:>11}", "-");
  }
};

int run(const fs::path& predictions_path, const fs::path& data, const std::optional<fs::path>& json_out) {
  const nlohmann::json predictions = read_json(predictions_path);
  const nlohmann::json references = read_json(data / "reference_scores.json");
  const std::map<std::string, Series> all = read_series(data);
  std::map<std::string, std::vector<const Series*>> by_source;
  for (const auto& [name, s] : all) {
    if (predictions.contains(name)) {
      by_source[s.source].push_back(&s);
    }
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [source, list] : by_source) {
    const auto& methods = source == "TCPD" ? k_tcpd_methods : k_perfherder_methods;
    std::string header = fmt::format("{:<20} {:>5}  {:>11}", source, "n", "perfduel");
    for (const auto& m : methods) {
      header += fmt::format("  {:>11}", m);
    }
    fmt::print("{}\n{:<20} {:>5}  {:>11}", header, "", "", "F1    cover");
    for (std::size_t i = 0; i < methods.size(); ++i) {
      fmt::print("  {:>11}", "F1    cover");
    }
    fmt::print("\n");
    Mean mine;
    std::vector<Mean> theirs(methods.size());
    for (const Series* s : list) {
      const Score own = score(*s, predictions.at(s->name).get<ChangePoints>());
      mine.add(own);
      out[s->name] = {{"f1", own.f1}, {"cover", own.cover}};
      std::string line = fmt::format("{:<20} {:>5}  {}", s->name, s->length, cell(own));
      for (std::size_t i = 0; i < methods.size(); ++i) {
        const auto r = reference(references, *s, methods[i]);
        theirs[i].add(r);
        line += "  " + cell(r);
      }
      fmt::print("{}\n", line);
    }
    std::string mean =
        fmt::format("{:<20} {:>5}  {}", fmt::format("mean ({} series)", list.size()), "", mine.text());
    std::string counted = fmt::format("{:<20} {:>5}  {:>11}", "series in the mean", "", mine.count);
    for (const Mean& m : theirs) {
      mean += "  " + m.text();
      counted += fmt::format("  {:>11}", m.count);
    }
    fmt::print("{}\n{}\n\n", mean, counted);
  }
  const std::size_t missing = all.size() - out.size();
  if (missing > 0) {
    fmt::print("{} series of {} not in the predictions (not scored)\n", missing, data.string());
  }
  if (json_out) {
    std::ofstream(*json_out) << out.dump(1) << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<fs::path> predictions;
  std::optional<fs::path> data;
  std::optional<fs::path> json_out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--data" || arg == "--json") && i + 1 < argc) {
      (arg == "--data" ? data : json_out) = argv[++i];
    } else if (!predictions && arg.rfind("--", 0) != 0) {
      predictions = arg;
    } else {
      fmt::print(stderr, "perfduel_trend_score: unexpected argument {}\n", arg);
      return 2;
    }
  }
  if (!predictions || !data) {
    fmt::print(stderr, "usage: perfduel_trend_score PREDICTIONS.json --data DIR [--json OUT]\n");
    return 2;
  }
  try {
    return run(*predictions, *data, json_out);
  } catch (const std::exception& e) {
    fmt::print(stderr, "perfduel_trend_score: {}\n", e.what());
    return 2;
  }
}
