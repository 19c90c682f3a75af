#include "report/trend_plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/core.h>

#include "report/palette.hpp"
#include "util/svg.hpp"

namespace perfduel {

namespace {

constexpr double k_trend_width = 800.0;
constexpr double k_trend_height = 400.0;
constexpr double k_trend_left = 70.0;
constexpr double k_trend_right = 20.0;
constexpr double k_trend_top = 40.0;
constexpr double k_trend_bottom = 40.0;

// The values' range of `plot`'s samples, padded; 0 to 1 without any.
svg::Range sample_range(const TrendPlot& plot) {
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  for (const auto& run : plot.samples) {
    for (const double v : run) {
      low = std::min(low, v);
      high = std::max(high, v);
    }
  }
  if (!std::isfinite(low)) {
    low = 0.0;
    high = 1.0;
  }
  return svg::padded_range(low, high, 0.0);
}

// The axes with the extreme values of `value_y` and the run range, and the axes' names.
std::string trend_axes(const TrendPlot& plot, const svg::LinearScale& value_y) {
  std::string svg;
  svg += fmt::format(
      "<g stroke=\"#888\"><line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>"
      "<line x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\"/></g>\n",
      k_trend_left, k_trend_top, k_trend_height - k_trend_bottom, k_trend_width - k_trend_right);
  svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.4g}</text>\n", k_trend_left - 6,
                     value_y(value_y.high()) + 4, value_y.high());
  svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.4g}</text>\n", k_trend_left - 6,
                     value_y(value_y.low()) + 4, value_y.low());
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">run</text>\n",
                     (k_trend_left + k_trend_width) / 2, k_trend_height - 8);
  svg += fmt::format(
      "<text x=\"16\" y=\"{0}\" transform=\"rotate(-90 16 {0})\" text-anchor=\"middle\">{1}</text>\n",
      (k_trend_top + k_trend_height - k_trend_bottom) / 2, svg::escape(plot.value_label));
  return svg;
}

// Regressions and progressions circled at their group's first run.
std::string change_circles(const TrendPlot& plot, const svg::LinearScale& run_x,
                           const svg::LinearScale& value_y) {
  std::string svg;
  for (const trend::Group& group : plot.grouping.groups) {
    if (group.change == trend::Change::normal) {
      continue;
    }
    const bool regression = group.change == trend::Change::regression;
    svg += fmt::format(
        "<circle class=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"9\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"2\">"
        "<title>run {}: {} to {:.6g}</title></circle>\n",
        trend::to_string(group.change), run_x(static_cast<double>(group.start)),
        value_y(trend::level_at_start(group)),
        verdict_colour(regression ? Verdict::regression : Verdict::improvement), group.start,
        trend::to_string(group.change), trend::level_at_start(group));
  }
  return svg;
}

}  // namespace

std::string render_trend_svg(const TrendPlot& plot) {
  // Runs across, values up; a flat series gets some height so it sits in the middle.
  const std::size_t runs = plot.samples.size();
  const svg::LinearScale run_x(0.0, runs > 1 ? static_cast<double>(runs - 1) : 1.0, k_trend_left,
                               k_trend_width - k_trend_right);
  const svg::Range range = sample_range(plot);
  const svg::LinearScale value_y(range.low, range.high, k_trend_height - k_trend_bottom, k_trend_top);

  std::string svg = svg::open_document(k_trend_width, k_trend_height);
  svg += fmt::format("<text x=\"{}\" y=\"24\" font-size=\"16\">{}</text>\n", k_trend_left,
                     svg::escape(plot.title));
  svg += trend_axes(plot, value_y);

  // Samples as dots.
  svg += fmt::format("<g fill=\"{}\" fill-opacity=\"0.6\">\n", k_baseline_colour);
  for (std::size_t run = 0; run < plot.samples.size(); ++run) {
    for (const double v : plot.samples[run]) {
      svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2\"/>\n", run_x(static_cast<double>(run)),
                         value_y(v));
    }
  }
  svg += "</g>\n";

  // Each group's fit as one line: a level (or a sloped line) over the group, a vertical
  // step at each change.
  std::string points;
  for (const trend::Group& group : plot.grouping.groups) {
    const double before = group.start > 0 ? 0.5 : 0.0;
    const double after = group.start + group.runs < plot.samples.size() ? 0.5 : 0.0;
    const double last = static_cast<double>(group.runs - 1);
    points += fmt::format("{:.1f},{:.1f} {:.1f},{:.1f} ", run_x(static_cast<double>(group.start) - before),
                          value_y(trend::level_at(group, -before)),
                          run_x(static_cast<double>(group.start) + last + after),
                          value_y(trend::level_at(group, last + after)));
  }
  svg += fmt::format("<polyline fill=\"none\" stroke=\"#222\" stroke-width=\"2\" points=\"{}\"/>\n", points);

  svg += change_circles(plot, run_x, value_y);
  svg += "</svg>\n";
  return svg;
}

}  // namespace perfduel
