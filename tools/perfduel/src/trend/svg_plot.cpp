#include "trend/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/core.h>

namespace perfduel::trend {

namespace {

constexpr double k_width = 800.0;
constexpr double k_height = 400.0;
constexpr double k_left = 70.0;
constexpr double k_right = 20.0;
constexpr double k_top = 40.0;
constexpr double k_bottom = 40.0;

std::string escape_xml(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Maps run indices and values into the plot area.
class Scale {
 public:
  Scale(std::size_t runs, double low, double high) : m_runs(runs), m_low(low), m_high(high) {
    if (!(m_high > m_low)) {
      // A flat series: give it some height so it sits in the middle.
      const double pad = m_low == 0.0 ? 1.0 : std::fabs(m_low) * 0.05;
      m_low -= pad;
      m_high += pad;
    }
  }

  double x(double run) const {
    const double span = m_runs > 1 ? static_cast<double>(m_runs - 1) : 1.0;
    return k_left + (k_width - k_left - k_right) * (run / span);
  }

  double y(double value) const {
    return k_top + (k_height - k_top - k_bottom) * (1.0 - (value - m_low) / (m_high - m_low));
  }

  double low() const { return m_low; }
  double high() const { return m_high; }

 private:
  std::size_t m_runs;
  double m_low;
  double m_high;
};

}  // namespace

std::string render_trend_svg(const TrendPlot& plot) {
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
  const Scale scale(plot.samples.size(), low, high);

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"24\" font-size=\"16\">{3}</text>\n",
      k_width, k_height, k_left, escape_xml(plot.title));
  // Axes with the extreme values and the run range.
  svg += fmt::format(
      "<g stroke=\"#888\"><line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>"
      "<line x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\"/></g>\n",
      k_left, k_top, k_height - k_bottom, k_width - k_right);
  svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.4g}</text>\n", k_left - 6,
                     scale.y(scale.high()) + 4, scale.high());
  svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.4g}</text>\n", k_left - 6,
                     scale.y(scale.low()) + 4, scale.low());
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">run</text>\n", (k_left + k_width) / 2,
                     k_height - 8);
  svg += fmt::format(
      "<text x=\"16\" y=\"{0}\" transform=\"rotate(-90 16 {0})\" text-anchor=\"middle\">{1}</text>\n",
      (k_top + k_height - k_bottom) / 2, escape_xml(plot.value_label));

  // Samples as dots.
  svg += "<g fill=\"#4477aa\" fill-opacity=\"0.6\">\n";
  for (std::size_t run = 0; run < plot.samples.size(); ++run) {
    for (const double v : plot.samples[run]) {
      svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2\"/>\n", scale.x(static_cast<double>(run)),
                         scale.y(v));
    }
  }
  svg += "</g>\n";

  // Group averages as one step line: horizontal over each group, vertical at each change.
  std::string points;
  for (const Group& group : plot.grouping.groups) {
    const double y = scale.y(group.stats.avg);
    const double begin = static_cast<double>(group.start) - (group.start > 0 ? 0.5 : 0.0);
    const double end = static_cast<double>(group.start + group.runs - 1) +
                       (group.start + group.runs < plot.samples.size() ? 0.5 : 0.0);
    points += fmt::format("{:.1f},{:.1f} {:.1f},{:.1f} ", scale.x(begin), y, scale.x(end), y);
  }
  svg += fmt::format("<polyline fill=\"none\" stroke=\"#222\" stroke-width=\"2\" points=\"{}\"/>\n", points);

  // Regressions and progressions circled at the group's first run.
  for (const Group& group : plot.grouping.groups) {
    if (group.change == Change::normal) {
      continue;
    }
    const bool regression = group.change == Change::regression;
    svg += fmt::format(
        "<circle class=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"9\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"2\">"
        "<title>run {}: {} to {:.6g}</title></circle>\n",
        to_string(group.change), scale.x(static_cast<double>(group.start)), scale.y(group.stats.avg),
        regression ? "#cc3311" : "#228833", group.start, to_string(group.change), group.stats.avg);
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace perfduel::trend
