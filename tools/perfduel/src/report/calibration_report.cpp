#include "report/calibration_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "stats/estimator.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// "13 %" / "13%": a fraction as a person writes it (for the table and for YAML).
std::string fraction_text(double fraction, bool yaml) {
  return fmt::format("{:.4g}{}", 100 * fraction, yaml ? "%" : " %");
}

// The rounds a projection says, "~70", "> 1 million".
std::string projected_rounds_text(double rounds) {
  if (std::isnan(rounds)) {
    return "n/a";
  }
  return std::isfinite(rounds) ? fmt::format("~{:.0f}", std::ceil(rounds)) : "> 1 million";
}

// σ of a log-ratio per round as a relative spread, "21.0 %".
std::string sigma_text(double sigma) {
  return std::isnan(sigma) ? "n/a" : fmt::format("{:.3g} %", 100 * std::expm1(sigma));
}

// A YAML double-quoted scalar.
std::string yaml_quoted(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
    }
    quoted += c;
  }
  return quoted + "\"";
}

// Whether `spec` is a benchmark pattern's metric ("key/benchmark"), which an entry of its own can
// override.
bool from_pattern(const MetricSpec& spec) {
  const bool suite = spec.source == MetricSource::google_benchmark || spec.source == MetricSource::catch2;
  return suite && spec.name.size() > spec.benchmark.size() + 1 && spec.name.ends_with("/" + spec.benchmark);
}

// The entry that reads what `spec` reads, with `threshold` and `tolerance`.
std::string override_entry(const MetricSpec& spec, double threshold, double tolerance) {
  std::string value =
      spec.source == MetricSource::google_benchmark
          ? fmt::format("google_benchmark: {}, field: {}", yaml_quoted(spec.benchmark), spec.field)
          : fmt::format("catch2: {}", yaml_quoted(spec.benchmark));
  value += fmt::format(", estimator: {}", util::name_of(stats::k_estimator_names, spec.estimator));
  if (spec.direction == Direction::higher_is_better) {
    value += ", direction: higher";
  }
  if (spec.repetitions == Repetitions::best) {
    value += ", repetitions: best";
  }
  return fmt::format("{}: {{{}, threshold: {}, tolerance: {}}}", yaml_quoted(spec.name), value,
                     fraction_text(threshold, true), fraction_text(tolerance, true));
}

}  // namespace

std::string format_calibration(const Calibration& calibration, const std::string& source) {
  std::string text =
      fmt::format("calibration from {}{}; budget about {:.0f} rounds, thresholds aimed at {:.0f}\n", source,
                  calibration.seconds_per_round > 0
                      ? fmt::format(" ({} per round)", util::format_seconds(calibration.seconds_per_round))
                      : std::string(),
                  calibration.budget_rounds, calibration.target_rounds);
  std::vector<std::vector<std::string>> rows{
      {"metric", "σ per round", "threshold", "rounds", "proposed", "tolerance", "rounds"}};
  for (const auto& metric : calibration.metrics) {
    rows.push_back({metric.spec.name, sigma_text(metric.noise.sigma),
                    fraction_text(metric.spec.threshold, false),
                    projected_rounds_text(metric.rounds_configured),
                    metric.counted    ? "counted"
                    : metric.loosened ? fraction_text(metric.threshold, false)
                                      : "kept",
                    fraction_text(metric.tolerance, false), projected_rounds_text(metric.rounds_proposed)});
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  const auto length = [](const std::string& cell) {
    return static_cast<std::size_t>(std::count_if(
        cell.begin(), cell.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U; }));
  };
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], length(row[c]));
    }
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(widths[c] - length(row[c]), ' ');
      line += (c == 0 ? row[c] + pad : pad + row[c]) + (c + 1 < row.size() ? "  " : "");
    }
    text += std::string(util::trim(line)) + "\n";
  }
  std::size_t loosened = 0;
  for (const auto& metric : calibration.metrics) {
    loosened += metric.loosened ? 1 : 0;
  }
  text += fmt::format(
      "rounds: the median rounds to settle no change at that threshold and tolerance, from the noise "
      "measured; {} of {} gated metrics need a looser threshold than configured to settle within the "
      "budget (calibration never tightens one)\n",
      loosened, calibration.metrics.size());
  if (calibration.budget_rounds < calibration.target_rounds) {
    text += fmt::format(
        "warning: the budget (about {:.0f} rounds) is below min_rounds ({:.0f}): nothing can settle within "
        "it; "
        "raise max_seconds or max_rounds\n",
        calibration.budget_rounds, calibration.target_rounds);
  }
  return text;
}

std::string format_calibration_fragment(const Calibration& calibration, const std::string& source) {
  std::string text = fmt::format(
      "  # perfduel calibrate: from {}; budget about {:.0f} rounds, thresholds aimed at {:.0f}.\n"
      "  # Paste under \"metrics:\"; an entry named as a pattern names a benchmark overrides that pattern "
      "for it.\n",
      source, calibration.budget_rounds, calibration.target_rounds);
  for (const auto& metric : calibration.metrics) {
    const std::string measured =
        fmt::format("σ {} per round: {} rounds to settle", sigma_text(metric.noise.sigma),
                    projected_rounds_text(metric.rounds_proposed));
    if (metric.counted) {
      text += fmt::format(
          "  # {}: a count, the same on every run: settles in {} rounds, nothing to "
          "fit\n",
          metric.spec.name, k_deterministic_min_rounds);
      continue;
    }
    if (!metric.loosened) {
      // An entry of the gate's own that overrides a pattern is written again: the fragment
      // replaces the earlier one it came from, and a comment would drop it.
      if (metric.own_entry && from_pattern(metric.spec)) {
        text += fmt::format("  {}  # kept ({})\n",
                            override_entry(metric.spec, metric.threshold, metric.tolerance), measured);
      } else {
        text += fmt::format("  # {}: kept at {} ({})\n", metric.spec.name,
                            fraction_text(metric.spec.threshold, false), measured);
      }
      continue;
    }
    const std::string was =
        fmt::format("at the configured {}: {}", fraction_text(metric.spec.threshold, false),
                    projected_rounds_text(metric.rounds_configured));
    if (from_pattern(metric.spec)) {
      text += fmt::format("  {}  # {} ({})\n",
                          override_entry(metric.spec, metric.threshold, metric.tolerance), measured, was);
    } else {
      text += fmt::format("  # {}: set threshold: {}, tolerance: {} in its entry ({}; {})\n",
                          metric.spec.name, fraction_text(metric.threshold, true),
                          fraction_text(metric.tolerance, true), measured, was);
    }
  }
  return text;
}

}  // namespace perfduel
