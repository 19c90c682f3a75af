#include "report/duel_plot.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "report/duel_points.hpp"
#include "report/labels.hpp"
#include "report/palette.hpp"
#include "report/suite_chart.hpp"
#include "report/suite_view.hpp"
#include "report/table.hpp"
#include "report/units.hpp"
#include "report_format/json_report.hpp"
#include "util/shell_words.hpp"
#include "util/svg.hpp"
#include "util/text.hpp"

namespace perfduel {

namespace {

// Page geometry. Each panel is drawn inside a <g> translated to its place, so the panel
// constants are relative to it.
constexpr double k_single_width = 860;  // a lone panel, and the page without panels
constexpr double k_grid_width = 620;    // each panel of a grid
constexpr double k_left = 80;           // room for tick labels and the rotated axis label
constexpr double k_right = 24;
constexpr double k_header_height = 104;
constexpr double k_panel = 452;
constexpr double k_upper_top = 62;  // below the title and two lines of small print
constexpr double k_upper_bottom = 242;
constexpr double k_lower_top = 258;
constexpr double k_lower_bottom = 398;
// Small print (11 px sans-serif) and a panel title (15 px) take about this many pixels per
// character; a metric name in a title keeps at least this many characters.
constexpr double k_small_char_width = 6.0;
constexpr double k_title_char_width = 8.2;
constexpr std::size_t k_min_title_name = 12;

// Long commands are cut so that they stay on the page.
constexpr std::size_t k_max_text = 120;

// More metrics with a ratio than this and the plot is a suite's: one compact chart of all
// (report/suite_chart.hpp) and panels only for the changed metrics, at most this many.
constexpr std::size_t k_suite_panels = 8;

// How many panels a row of the page holds: one for a lone panel, two for up to four, three
// beyond, so that eight panels take three rows instead of one column 3,600 pixels tall.
std::size_t grid_columns(std::size_t panels) {
  return panels <= 1 ? 1 : panels <= 4 ? 2 : 3;
}

// How a side's runs are marked: the baseline with dots, the candidate with squares, so that
// the two differ in shape as well as colour (colour blindness, grey-scale prints).
enum class Shape { dot, square };

// The path data of one filled marker `size` pixels across at (`x`, `y`), to be stroked
// `size` wide with line_cap(shape): a zero-length segment that the round cap draws as a dot
// (SVG 1.1, 11.4), or a horizontal segment as long as the line is wide, a square.
std::string marker_path(Shape shape, double x, double y, double size) {
  return shape == Shape::dot ? fmt::format("M{:.1f} {:.1f}h0", x, y)
                             : fmt::format("M{:.1f} {:.1f}h{}", x - size / 2, y, size);
}

const char* line_cap(Shape shape) {
  return shape == Shape::dot ? "round" : "butt";
}

struct MarkerStyle {
  const char* css_class;
  const char* colour;
  Shape shape;
};

// The markers of `points`, `size` pixels across. Measured runs go into one path, a short
// stroke each (marker_path): a third of the bytes of a <circle> each, which counts at 2,000
// rounds a side. The few warm-up runs are hollow shapes of their own.
std::string markers(const std::vector<PlotPoint>& points, const MarkerStyle& style, const svg::LinearScale& x,
                    const svg::LinearScale& y, double size) {
  std::string filled;
  std::string hollow;
  const double half = size / 2;
  for (const PlotPoint& point : points) {
    const double px = x(point.round);
    const double py = y(point.value);
    if (!point.hollow) {
      filled += marker_path(style.shape, px, py, size);
    } else if (style.shape == Shape::dot) {
      hollow += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\"/>\n", px, py, half);
    } else {
      hollow += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\"/>\n", px - half,
                            py - half, size, size);
    }
  }
  std::string svg;
  if (!hollow.empty()) {
    svg += fmt::format("<g class=\"{} warm-up\" fill=\"none\" stroke=\"{}\">\n{}</g>\n", style.css_class,
                       style.colour, hollow);
  }
  if (!filled.empty()) {
    svg += fmt::format(
        "<path class=\"{}\" d=\"{}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"{}\" "
        "stroke-opacity=\"0.7\"/>\n",
        style.css_class, filled, style.colour, size, line_cap(style.shape));
  }
  return svg;
}

// Horizontal grid lines and labels for `ticks` on the y axis `y`, across to `right`.
std::string y_axis(const svg::LinearScale& y, const svg::Ticks& ticks, svg::Sign sign, double right) {
  std::string grid;
  std::string labels;
  for (const double tick : ticks.values) {
    const double at = y(tick);
    grid += fmt::format("M{} {:.1f}H{}", k_left, at, right);
    labels += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", k_left - 6, at + 4,
                          svg::format_tick(tick, ticks.step, sign));
  }
  return fmt::format("<path d=\"{}\" stroke=\"#e4e4e4\"/>\n{}", grid, labels);
}

// A y axis label, written upwards beside the plot from `top` to `bottom` (cut to fit).
std::string axis_label(double top, double bottom, const std::string& text) {
  const double middle = (top + bottom) / 2;
  return fmt::format(
      "<text x=\"18\" y=\"{0:.1f}\" transform=\"rotate(-90 18 {0:.1f})\" text-anchor=\"middle\">{1}</text>\n",
      middle, svg::escape(util::shorten(text, 32)));
}

// The outline of a plot from `top` to `bottom`, from k_left to `right`.
std::string frame(double top, double bottom, double right) {
  return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>\n",
                     k_left, top, right - k_left, bottom - top);
}

// A horizontal band from `lo` to `hi` across the plot (to `right`), with a tooltip when
// `title` is given.
std::string band(const svg::LinearScale& y, double lo, double hi, double right, const std::string& attributes,
                 const std::string& title = "") {
  const double top = y(hi);
  const std::string element =
      fmt::format("<rect {} x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\"", attributes, k_left, top,
                  right - k_left, std::max(y(lo) - top, 0.5));
  return element + (title.empty() ? "/>\n" : fmt::format("><title>{}</title></rect>\n", svg::escape(title)));
}

// Decimals for a panel's percentages: one, or two when the interval is narrower than 1 % so
// that its ends stay apart ("-0.01 % [-0.03 %, +0.01 %]" rather than "-0.0 % [-0.0 %, +0.0 %]").
int percent_decimals(const MetricResult& result) {
  const bool narrow =
      result.estimate.status == stats::EstimateStatus::ok && result.ci.hi - result.ci.lo < 0.01;
  return narrow ? 2 : 1;
}

// "wall_time: +55.0 % [+46.5 %, +63.9 %]" without the verdict.
// The name is cut at its start when the title would exceed `limit` bytes (numbers and
// verdict are never cut).
std::string title_numbers(const MetricResult& result, std::size_t limit) {
  const auto& estimate = result.estimate;
  const int decimals = percent_decimals(result);
  std::string numbers = "n/a";
  if (estimate.status == stats::EstimateStatus::ok) {
    numbers = fmt::format("{} [{}, {}]", util::format_percent(result.change, decimals),
                          util::format_percent(result.ci.lo, decimals),
                          util::format_percent(result.ci.hi, decimals));
  } else if (estimate.status == stats::EstimateStatus::unstable) {
    numbers = fmt::format("{} (no interval)", util::format_percent(result.change, decimals));
  }
  const std::size_t room =
      limit > numbers.size() + 2 + k_min_title_name ? limit - numbers.size() - 2 : k_min_title_name;
  return fmt::format("{}: {}", keep_name_end(result.spec.name, room), numbers);
}

// The small print under a panel title, two lines: what the numbers are (each side's median,
// the change's estimator), then level, rounds, threshold, tolerance and direction.
std::pair<std::string, std::string> subtitle(const MetricResult& result) {
  const auto& spec = result.spec;
  std::string what =
      fmt::format("medians {} → {} · change: {}", format_value(result.baseline_median, spec.unit),
                  format_value(result.candidate_median, spec.unit), estimator_phrase(result.estimator));
  std::string how;
  if (result.estimate.status == stats::EstimateStatus::ok) {
    how += fmt::format("{:.4g} % interval · ", 100 * result.confidence);
  }
  how += fmt::format("{} rounds · threshold {:.4g} %", result.estimate.rounds, 100 * spec.threshold);
  if (spec.tolerance > 0) {
    how += fmt::format(", tolerance ±{:.4g} %", 100 * spec.tolerance);
  }
  how += spec.direction == Direction::lower_is_better ? " · lower is better" : " · higher is better";
  if (shows_signs(result)) {
    // The interval above may still reach into the band: what showed the regression comes first.
    how = fmt::format("sign sequence: {} · ", signs_text(result.signs_beyond, result.signs_rounds,
                                                         spec.direction, signs_bound(spec))) +
          how;
  }
  if (!result.estimate.note.empty()) {
    how += " · " + result.estimate.note;
  }
  return {std::move(what), std::move(how)};
}

// A panel's title and the small print under it, fitted between k_left and `right`.
std::string panel_title(const MetricResult& result, double right) {
  std::string svg;
  const std::string verdict = verdict_label(result);
  const auto title_room = static_cast<std::size_t>((right - k_left) / k_title_char_width);
  const std::string numbers = title_numbers(result, title_room - std::min(title_room, verdict.size() + 1));
  svg += fmt::format("<title>{} {}</title>\n",
                     svg::escape(title_numbers(result, std::numeric_limits<std::size_t>::max())), verdict);
  svg += fmt::format(
      "<text class=\"title\" x=\"{}\" y=\"20\" font-size=\"15\">{} <tspan fill=\"{}\" "
      "font-weight=\"bold\">{}</tspan></text>\n",
      k_left, svg::escape(numbers), verdict_colour(result.verdict), verdict);
  const auto [what, how] = subtitle(result);
  const auto fitting = static_cast<std::size_t>((right - k_left) / k_small_char_width);
  svg += fmt::format(
      "<text x=\"{0}\" y=\"37\" font-size=\"11\" fill=\"#555\">{1}</text>\n"
      "<text x=\"{0}\" y=\"51\" font-size=\"11\" fill=\"#555\">{2}</text>\n",
      k_left, svg::escape(util::shorten(what, fitting)), svg::escape(util::shorten(how, fitting)));
  return svg;
}

// The rounds axis `x`, shared by both plots, from round 1 to `last_round`: whole-round ticks,
// their grid lines through both plots (to `right`) and the axis name.
std::string rounds_axis(const svg::LinearScale& x, double last_round, double right) {
  std::string svg;
  const svg::Ticks x_ticks = svg::nice_ticks(1, last_round, 8, 1);
  std::string grid;
  for (const double tick : x_ticks.values) {
    grid += fmt::format("M{0:.1f} {1}V{2}M{0:.1f} {3}V{4}", x(tick), k_upper_top, k_upper_bottom, k_lower_top,
                        k_lower_bottom);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x(tick),
                       k_lower_bottom + 15, svg::format_tick(tick, x_ticks.step));
  }
  svg += fmt::format("<path d=\"{}\" stroke=\"#e4e4e4\"/>\n", grid);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">round</text>\n", (k_left + right) / 2,
                     k_lower_bottom + 32);
  return svg;
}

// The upper plot: every run's value of both sides, on rounds axis `x`, to `right`.
std::string runs_plot(const MetricResult& result, const MetricPoints& points, const svg::LinearScale& x,
                      double right, double marker_size) {
  const auto& spec = result.spec;
  std::string svg;
  double magnitude = 0;
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  for (const auto* side : {&points.baseline, &points.candidate}) {
    for (const PlotPoint& point : *side) {
      magnitude = std::max(magnitude, std::fabs(point.value));
      low = std::min(low, point.value);
      high = std::max(high, point.value);
    }
  }
  const DisplayUnit unit = display_unit(spec.unit, magnitude);
  const svg::Range values = svg::padded_range(low * unit.factor, high * unit.factor, 0.05);
  const svg::LinearScale y_value(values.low, values.high, k_upper_bottom, k_upper_top);
  const svg::LinearScale y_raw(values.low / unit.factor, values.high / unit.factor, k_upper_bottom,
                               k_upper_top);
  svg += y_axis(y_value, svg::nice_ticks(values.low, values.high, 6), svg::Sign::plain, right);
  svg += axis_label(k_upper_top, k_upper_bottom,
                    unit.name.empty() ? spec.name : spec.name + " (" + unit.name + ")");
  svg += markers(points.baseline, {"baseline", k_baseline_colour, Shape::dot}, x, y_raw, marker_size);
  svg += markers(points.candidate, {"candidate", k_candidate_colour, Shape::square}, x, y_raw, marker_size);
  svg += frame(k_upper_top, k_upper_bottom, right);
  return svg;
}

// The lower plot's range of changes in %: every round's change, 0, the tolerance band and
// the estimate's interval (`has_interval`) fit in it.
svg::Range change_range(const MetricResult& result, const MetricPoints& points, bool has_interval) {
  const double tolerance = 100 * result.spec.tolerance;
  double low = std::min(0.0, -tolerance);
  double high = std::max(0.0, tolerance);
  for (const PlotPoint& point : points.change) {
    low = std::min(low, point.value);
    high = std::max(high, point.value);
  }
  if (has_interval) {
    low = std::min(low, 100 * result.ci.lo);
    high = std::max(high, 100 * result.ci.hi);
  }
  return svg::padded_range(low, high, 0.05);
}

// The lower plot: the change of each round, the estimate, its interval and the tolerance
// band, on rounds axis `x`, to `right`.
std::string changes_plot(const MetricResult& result, const MetricPoints& points, const svg::LinearScale& x,
                         double right, double marker_size) {
  const bool has_interval = result.estimate.status == stats::EstimateStatus::ok;
  const bool has_change = has_interval || result.estimate.status == stats::EstimateStatus::unstable;
  const double tolerance = 100 * result.spec.tolerance;
  const std::string_view colour = verdict_colour(result.verdict);
  const svg::Range changes = change_range(result, points, has_interval);
  const svg::LinearScale y_change(changes.low, changes.high, k_lower_bottom, k_lower_top);
  std::string svg;
  svg += y_axis(y_change, svg::nice_ticks(changes.low, changes.high, 5), svg::Sign::explicit_plus, right);
  svg += axis_label(k_lower_top, k_lower_bottom, "change per round (%)");
  if (tolerance > 0) {
    svg += band(y_change, -tolerance, tolerance, right,
                "class=\"tolerance\" fill=\"#000\" fill-opacity=\"0.06\"");
    svg += fmt::format(
        "<path d=\"M{0} {1:.1f}H{2}M{0} {3:.1f}H{2}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n", k_left,
        y_change(tolerance), right, y_change(-tolerance));
    svg += fmt::format(
        "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" font-size=\"10\" fill=\"#777\">±{:.4g} % "
        "tolerance</text>\n",
        right - 4, y_change(tolerance) - 3, tolerance);
  }
  if (has_interval) {
    svg += band(y_change, 100 * result.ci.lo, 100 * result.ci.hi, right,
                fmt::format("class=\"ci\" fill=\"{}\" fill-opacity=\"0.22\"", colour),
                fmt::format("{:.4g} % interval [{}, {}]", 100 * result.confidence,
                            util::format_percent(result.ci.lo, percent_decimals(result)),
                            util::format_percent(result.ci.hi, percent_decimals(result))));
  }
  svg += fmt::format("<path d=\"M{0} {1:.1f}H{2}\" stroke=\"#888\"/>\n", k_left, y_change(0), right);
  svg += markers(points.change, {"round", k_round_colour, Shape::dot}, x, y_change, marker_size);
  if (has_change) {
    svg += fmt::format(
        "<path class=\"estimate\" d=\"M{0} {1:.1f}H{2}\" stroke=\"{3}\" stroke-width=\"2\"><title>estimate "
        "{4}</title></path>\n",
        k_left, y_change(100 * result.change), right, colour,
        util::format_percent(result.change, percent_decimals(result)));
  }
  svg += frame(k_lower_top, k_lower_bottom, right);
  return svg;
}

// One metric's panel, `width` pixels wide, drawn from its own top: title, the runs above, the
// changes below; x runs from round 1 to `last_round`.
std::string render_panel(const MetricResult& result, const MetricPoints& points, double last_round,
                         double width) {
  const double right = width - k_right;  // the plots' right edge
  const svg::LinearScale x(0.5, last_round + 0.5, k_left, right);
  const double marker_size = last_round > 500 ? 3.0 : last_round > 100 ? 4.0 : 5.0;
  return panel_title(result, right) + rounds_axis(x, last_round, right) +
         runs_plot(result, points, x, right, marker_size) +
         changes_plot(result, points, x, right, marker_size);
}

// The document's head: overall verdict, the two commands with their colours, a legend.
std::string render_header(const Config& config, const DuelOutcome& outcome) {
  const auto& analysis = outcome.analysis;
  std::string verdict = overall_verdict(outcome);
  std::transform(verdict.begin(), verdict.end(), verdict.begin(),
                 [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
  std::string rounds = util::counted(analysis.measured_rounds, "measured round");
  if (analysis.dropped_rounds > 0) {
    rounds += fmt::format(" ({} dropped as warm-up)", analysis.dropped_rounds);
  }
  const std::string headline =
      fmt::format("perfduel: {} after {} in {} ({})", verdict, rounds,
                  util::format_seconds(outcome.elapsed_seconds), to_string(outcome.end));
  std::string svg = fmt::format("<title>{}</title>\n", svg::escape(headline));
  svg += fmt::format("<text x=\"16\" y=\"26\" font-size=\"17\" font-weight=\"bold\">{}</text>\n",
                     svg::escape(headline));
  // Each command with the marker of its side, as the panels draw it.
  const auto command_line = [&](double y, const char* colour, Shape shape, const char* side,
                                const std::optional<CommandSpec>& command) {
    const std::string words = command ? util::join_shell_words(command->argv) : std::string("(none)");
    return fmt::format(
        "<path d=\"{}\" stroke=\"{}\" stroke-width=\"7\" stroke-linecap=\"{}\"/>"
        "<text x=\"32\" y=\"{}\"><tspan fill=\"{}\" font-weight=\"bold\">{}</tspan> {}</text>\n",
        marker_path(shape, 22, y - 4, 7), colour, line_cap(shape), y, colour, side,
        svg::escape(util::shorten(words, k_max_text)));
  };
  svg += command_line(48, k_baseline_colour, Shape::dot, "baseline", config.baseline);
  svg += command_line(66, k_candidate_colour, Shape::square, "candidate", config.candidate);

  // Legend of the lower plots, left to right.
  const double y = 90;
  svg += fmt::format(
      "<g font-size=\"11\" fill=\"#555\">"
      "<circle cx=\"22\" cy=\"{0}\" r=\"3\" fill=\"none\" stroke=\"#555\"/>"
      "<text x=\"30\" y=\"{1}\">warm-up run (not used)</text>"
      "<path d=\"M172 {0}h0\" stroke=\"{2}\" stroke-width=\"5\" stroke-linecap=\"round\"/>"
      "<text x=\"180\" y=\"{1}\">change of one round</text>"
      "<path d=\"M310 {0}H330\" stroke=\"#555\" stroke-width=\"2\"/>"
      "<text x=\"336\" y=\"{1}\">estimate</text>"
      "<rect x=\"400\" y=\"{3}\" width=\"20\" height=\"8\" fill=\"#555\" fill-opacity=\"0.3\"/>"
      "<text x=\"426\" y=\"{1}\">confidence interval</text>"
      "<rect x=\"550\" y=\"{3}\" width=\"20\" height=\"8\" fill=\"#000\" fill-opacity=\"0.06\" "
      "stroke=\"#999\" stroke-dasharray=\"4 3\"/>"
      "<text x=\"576\" y=\"{1}\">tolerance band (no change)</text></g>\n",
      y - 4, y, k_round_colour, y - 8);
  return svg;
}

// The metrics to plot, by index: gated metrics first, each group in configuration order; a
// metric without a ratio (zero values) has nothing to show below and is left out.
std::vector<std::size_t> plottable_metrics(const Config& config, const Analysis& analysis) {
  std::vector<std::size_t> order;
  for (const Gating gating : {Gating::gated, Gating::report_only}) {
    for (std::size_t m = 0; m < analysis.metrics.size() && m < config.metrics.size(); ++m) {
      const auto& result = analysis.metrics[m];
      if (result.spec.gating == gating && result.has_ratio) {
        order.push_back(m);
      }
    }
  }
  return order;
}

// What the page says instead of panels when there is nothing to plot.
std::string empty_plot_text(const DuelOutcome& outcome) {
  if (outcome.end == DuelEnd::identical) {
    return fmt::format("identical programs: nothing to measure, every metric is no change{}",
                       outcome.programs.baseline
                           ? " (fingerprint sha256 " + outcome.programs.baseline->sha256 + ")"
                           : std::string());
  }
  return outcome.runs.empty() ? "no runs to plot" : "no metric with a ratio to plot";
}

}  // namespace

std::string render_duel_svg(const Config& config, const DuelOutcome& outcome) {
  const auto& analysis = outcome.analysis;
  std::vector<std::size_t> order = plottable_metrics(config, analysis);
  const auto rounds = runs_by_round(outcome.runs);
  const auto warmup = warmup_rounds(rounds, analysis.dropped_rounds);
  const auto last_round = static_cast<double>(std::max<std::size_t>(rounds.size(), 1));

  // A suite: one compact chart of every metric, then panels for the changes only.
  std::vector<const MetricResult*> chart_rows;
  if (order.size() > k_suite_panels) {
    std::vector<std::size_t> changed;
    for (const std::size_t m : display_order(analysis)) {
      if (std::find(order.begin(), order.end(), m) != order.end()) {
        chart_rows.push_back(&analysis.metrics[m]);
        if (!is_unchanged(analysis.metrics[m]) && changed.size() < k_suite_panels) {
          changed.push_back(m);
        }
      }
    }
    order = changed;
  }
  std::vector<std::size_t> plotted;
  std::vector<MetricPoints> points;
  for (const std::size_t m : order) {
    auto collected = collect_points(rounds, warmup, m);
    if (!collected.baseline.empty() || !collected.candidate.empty()) {
      plotted.push_back(m);
      points.push_back(std::move(collected));
    }
  }

  // The panels in a grid, row by row, below the header and the suite's chart.
  const std::size_t columns = grid_columns(plotted.size());
  const double panel_width = columns == 1 ? k_single_width : k_grid_width;
  const double width = panel_width * static_cast<double>(columns);
  const double chart_height = chart_rows.empty() ? 0 : suite_chart_height(chart_rows.size());
  const std::size_t grid_rows = (plotted.size() + columns - 1) / columns;
  const double height =
      k_header_height + chart_height + (plotted.empty() ? 50 : k_panel * static_cast<double>(grid_rows));
  std::string svg = svg::open_document(width, height);
  svg += render_header(config, outcome);
  if (!chart_rows.empty()) {
    svg += fmt::format("<g class=\"suite\" transform=\"translate(0 {})\">\n{}</g>\n", k_header_height,
                       render_suite_chart(chart_rows, width));
  }
  if (plotted.empty() && chart_rows.empty()) {
    svg += fmt::format("<text x=\"16\" y=\"{}\">{}</text>\n", k_header_height + 20,
                       svg::escape(empty_plot_text(outcome)));
  }
  for (std::size_t p = 0; p < plotted.size(); ++p) {
    const std::size_t grid_row = p / columns;  // row by row, left to right
    const std::size_t grid_column = p % columns;
    svg += fmt::format("<g class=\"metric\" transform=\"translate({} {})\">\n{}</g>\n",
                       panel_width * static_cast<double>(grid_column),
                       k_header_height + chart_height + k_panel * static_cast<double>(grid_row),
                       render_panel(analysis.metrics[plotted[p]], points[p], last_round, panel_width));
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace perfduel
