#include "report/suite_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/labels.hpp"
#include "report/palette.hpp"
#include "report/suite_view.hpp"
#include "report_format/json_report.hpp"
#include "util/svg.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

constexpr double k_row = 18;
constexpr double k_top = 44;            // below the title and the caption
constexpr double k_axis = 34;           // tick labels and the axis title below the rows
constexpr double k_name_right = 300;    // names end here
constexpr double k_verdict_width = 96;  // the verdict column at the right
// Intervals beyond ±100 % (a 2× change and more) are cut at the edge, so that one wild
// benchmark does not squeeze the others into a line.
constexpr double k_clip = 1.0;

// A row's tooltip: "name: +3.10 % [+1.00 %, +5.20 %]", and the sign sequence's rounds where they
// showed a regression before the interval did.
std::string row_title(const MetricResult& result) {
  std::string text = fmt::format("{}: {}", result.spec.name, change_label(result));
  if (result.estimate.status == stats::EstimateStatus::ok) {
    text += fmt::format(" [{}, {}]", util::format_percent(result.ci.lo), util::format_percent(result.ci.hi));
  }
  if (shows_signs(result)) {
    text += " · sign sequence: " + signs_text(result.signs_beyond, result.signs_rounds, result.spec.direction,
                                              signs_bound(result.spec));
  }
  return fmt::format("<title>{}</title>", svg::escape(text));
}

// One percent axis for all rows: every interval, estimate and tolerance band of `results`, and
// zero, each clipped to ±k_clip, padded.
svg::Range chart_range(const std::vector<const MetricResult*>& results) {
  double low = 0;
  double high = 0;
  for (const MetricResult* result : results) {
    const bool has_interval = result->estimate.status == stats::EstimateStatus::ok;
    for (const double value :
         {result->change, has_interval ? result->ci.lo : result->change,
          has_interval ? result->ci.hi : result->change, -result->spec.tolerance, result->spec.tolerance}) {
      if (std::isfinite(value)) {
        low = std::min(low, std::max(value, -k_clip));
        high = std::max(high, std::min(value, k_clip));
      }
    }
  }
  return svg::padded_range(100 * low, 100 * high, 0.05);
}

// Row `r` of the chart: `result`'s name, tolerance band, interval, estimate and verdict, on the
// axis `x`, the plot ending at `plot_right`, the chart `width` wide.
std::string chart_row(const MetricResult& result, std::size_t r, const svg::LinearScale& x, double width,
                      double plot_right) {
  const auto clipped = [&](double change) { return x(100 * std::clamp(change, -k_clip, k_clip)); };
  const double top = k_top + k_row * static_cast<double>(r);
  const double middle = top + k_row / 2;
  const std::string_view colour = verdict_colour(result.verdict);
  const bool has_interval = result.estimate.status == stats::EstimateStatus::ok;
  std::string row = row_title(result);
  if (r % 2 == 1) {
    row += fmt::format("<rect x=\"8\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f6f6f6\"/>", top,
                       width - 16, k_row);
  }
  row += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>", k_name_right, middle + 4,
                     svg::escape(keep_name_end(result.spec.name, 44)));
  if (result.spec.tolerance > 0) {
    const double left = clipped(-result.spec.tolerance);
    row += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"#000\" "
        "fill-opacity=\"0.06\"/>",
        left, top + 2, clipped(result.spec.tolerance) - left, k_row - 4);
  }
  if (has_interval) {
    row += fmt::format(
        "<path d=\"M{:.1f} {:.1f}H{:.1f}\" stroke=\"{}\" stroke-width=\"4\" "
        "stroke-opacity=\"0.55\"/>",
        clipped(result.ci.lo), middle, clipped(result.ci.hi), colour);
  }
  if (std::isfinite(result.change) && result.estimate.status != stats::EstimateStatus::insufficient_data) {
    row += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"/>", clipped(result.change),
                       middle, colour);
  }
  row += fmt::format("<text x=\"{}\" y=\"{:.1f}\" fill=\"{}\" font-weight=\"bold\">{}</text>",
                     plot_right + 12, middle + 4, colour, to_string(result.verdict));
  return "<g class=\"row\">" + row + "</g>\n";
}

}  // namespace

double suite_chart_height(std::size_t count) {
  return k_top + k_row * static_cast<double>(count) + k_axis;
}

std::string render_suite_chart(const std::vector<const MetricResult*>& results, double width) {
  const svg::Range range = chart_range(results);
  const double plot_right = width - k_verdict_width - 16;
  const svg::LinearScale x(range.low, range.high, k_name_right + 12, plot_right);
  const double bottom = k_top + k_row * static_cast<double>(results.size());

  std::string svg;
  svg += "<text x=\"16\" y=\"20\" font-size=\"15\">Change per metric</text>\n";
  svg += fmt::format(
      "<text x=\"16\" y=\"36\" font-size=\"11\" fill=\"#555\">candidate / baseline − 1: dot the estimate, "
      "bar "
      "the interval at each metric's level, shaded its tolerance band; changes first</text>\n");
  const svg::Ticks ticks = svg::nice_ticks(range.low, range.high, 8);
  std::string grid;
  for (const double tick : ticks.values) {
    grid += fmt::format("M{:.1f} {}V{}", x(tick), k_top, bottom);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{} %</text>\n", x(tick),
                       bottom + 14, svg::format_tick(tick, ticks.step, svg::Sign::explicit_plus));
  }
  svg += fmt::format("<path d=\"{}\" stroke=\"#e4e4e4\"/>\n", grid);
  svg += fmt::format("<path d=\"M{:.1f} {}V{}\" stroke=\"#888\"/>\n", x(0), k_top, bottom);

  for (std::size_t r = 0; r < results.size(); ++r) {
    svg += chart_row(*results[r], r, x, width, plot_right);
  }
  return svg;
}

}  // namespace perfduel
