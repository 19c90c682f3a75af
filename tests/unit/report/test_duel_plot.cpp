#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "duel/analysis.hpp"
#include "duel/duel.hpp"
#include "report/duel_plot.hpp"
#include "report/palette.hpp"
#include "support/made_up_duels.hpp"
#include "util/svg.hpp"
#include "util/text.hpp"

using namespace perfduel;

namespace {

// The first well-formedness problem of `text` as an XML document, or "" when there is none:
// one root element, every tag closed in order, attribute quotes paired, no '<' or '>' outside
// tags and every '&' starting an entity. Enough for the SVG we write (no comments, CDATA or
// processing instructions).
std::string xml_problem(const std::string& text) {
  std::vector<std::string> open;
  bool root_closed = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '<') {
      if (root_closed) {
        return "content after the root element at " + std::to_string(at);
      }
      const auto end = text.find('>', at);
      if (end == std::string::npos) {
        return "unterminated tag at " + std::to_string(at);
      }
      const std::string tag = text.substr(at + 1, end - at - 1);
      if (tag.find('<') != std::string::npos || std::count(tag.begin(), tag.end(), '"') % 2 != 0) {
        return "malformed tag <" + tag + ">";
      }
      if (tag.starts_with("/")) {
        if (open.empty() || open.back() != tag.substr(1)) {
          return "</" + tag.substr(1) + "> closes <" + (open.empty() ? "" : open.back()) + ">";
        }
        open.pop_back();
        root_closed = open.empty();
      } else if (!tag.ends_with("/")) {
        open.push_back(tag.substr(0, tag.find_first_of(" \n")));
      } else if (open.empty()) {
        root_closed = true;
      }
      at = end;
    } else if (open.empty() && std::isspace(static_cast<unsigned char>(c)) == 0) {
      return "text outside the root element at " + std::to_string(at);
    } else if (c == '&') {
      static const std::regex k_entity("^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);");
      if (!std::regex_search(text.substr(at, 10), k_entity)) {
        return "bare & at " + std::to_string(at);
      }
    } else if (c == '>') {
      return "stray > at " + std::to_string(at);
    }
  }
  if (!open.empty()) {
    return "<" + open.back() + "> is never closed";
  }
  return root_closed ? "" : "no root element";
}

// The most decimals of any number in a marker path or a hollow marker of the panels (scanned
// by hand: std::regex recurses once per character and would overflow the stack on a long path).
std::size_t max_marker_decimals(const std::string& svg) {
  std::size_t most = 0;
  const auto panels = svg.find("<g class=\"metric\"");
  for (const std::string opening : {"<path class=\"", "<circle ", "<rect x"}) {
    for (auto at = svg.find(opening, panels); at != std::string::npos; at = svg.find(opening, at + 1)) {
      const std::string element = svg.substr(at, svg.find('>', at) - at);
      for (auto dot = element.find('.'); dot != std::string::npos; dot = element.find('.', dot + 1)) {
        const auto end = element.find_first_not_of("0123456789", dot + 1);
        most = std::max(most, (end == std::string::npos ? element.size() : end) - dot - 1);
      }
    }
  }
  return most;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// The markers of each element of class `css_class`, in document order: the subpaths of a
// marker path ("Mx yh0" or "Mx yh5"), the shapes of a group of hollow markers.
std::vector<std::size_t> markers_per_element(const std::string& svg, const std::string& css_class) {
  std::vector<std::size_t> counts;
  const std::string attribute = "class=\"" + css_class + "\"";
  for (auto at = svg.find(attribute); at != std::string::npos; at = svg.find(attribute, at + 1)) {
    const auto start = svg.rfind('<', at);
    if (svg.compare(start, 6, "<path ") == 0) {
      const auto d = svg.find(" d=\"", at) + 4;
      const std::string path = svg.substr(d, svg.find('"', d) - d);
      CHECK(count(path, "M") == count(path, "h"));
      counts.push_back(count(path, "M"));
    } else {
      const std::string group = svg.substr(at, svg.find("</g>", at) - at);
      counts.push_back(count(group, "<circle") + count(group, "<rect"));
    }
  }
  return counts;
}

MetricSpec metric(const std::string& name, const std::string& unit, Gating gating, double tolerance) {
  MetricSpec spec;
  spec.name = name;
  spec.unit = unit;
  spec.gating = gating;
  spec.threshold = 0.5;
  spec.tolerance = tolerance;
  return spec;
}

// A small fixed duel: one warm-up round and ten measured ones. The config lists the
// report-only metric "a<b&c" first, then the gated wall time (about 10 ms against 15 ms, a
// regression), then "idle", always zero and so without a ratio.
struct FixedDuel {
  Config config;
  DuelOutcome outcome;
};

FixedDuel fixed_duel(int measured_rounds = 10) {
  FixedDuel duel;
  auto& config = duel.config;
  config.baseline = CommandSpec{{"bench", "--size", "<10>"}, Launch::direct, {}, {}};
  config.candidate = CommandSpec{{"bench", "--fast & loose"}, Launch::direct, {}, {}};
  config.metrics = {metric("a<b&c", "", Gating::report_only, 0.0),
                    metric("wall_time", "s", Gating::gated, 0.03),
                    metric("idle", "s", Gating::report_only, 0.0)};
  config.warmup = 1;
  config.min_rounds = 5;
  config.autocorrelation_limit = 1.0;  // plain t interval: no batching of so few rounds
  auto& runs = duel.outcome.runs;
  for (int round = 0; round <= measured_rounds; ++round) {
    const double wobble = 0.01 * ((round * 7) % 5 - 2);
    const bool warmup = round == 0;
    const double slow = warmup ? 2.0 : 1.0;  // a cold first run
    const double odd_baseline = 100 + round % 3;
    const double odd_candidate = 101 + round % 2;
    runs.push_back({round, Side::baseline, warmup, {odd_baseline, 0.010 * slow * (1 + wobble), 0}});
    runs.push_back({round, Side::candidate, warmup, {odd_candidate, 0.015 * slow * (1 - wobble / 2), 0}});
  }
  duel.outcome.analysis = analyze(config, runs, Finality::final);
  duel.outcome.elapsed_seconds = 1.5;
  return duel;
}

}  // namespace

TEST_CASE("the duel plot is a well-formed SVG document", "[report][plot]") {
  const auto duel = fixed_duel();
  const std::string svg = render_duel_svg(duel.config, duel.outcome);
  CHECK(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK(svg.ends_with("</svg>\n"));
  CHECK(xml_problem(svg) == "");
  // The checker itself catches what it is meant to.
  CHECK(xml_problem("<svg><g></svg>") == "</svg> closes <g>");
  CHECK(xml_problem("<svg><text>a<b</text></svg>") == "malformed tag <b</text>");
  CHECK(xml_problem("<svg><text>a&b</text></svg>") == "bare & at 12");
  CHECK(xml_problem("<svg/><svg/>") == "content after the root element at 6");
  CHECK(xml_problem("<svg>") == "<svg> is never closed");
}

TEST_CASE("the duel plot has one panel per metric with a ratio, gated first", "[report][plot]") {
  const auto duel = fixed_duel();
  const std::string svg = render_duel_svg(duel.config, duel.outcome);
  CHECK(count(svg, "<g class=\"metric\"") == 2);
  const auto wall = svg.find("wall_time: ");
  const auto odd = svg.find("a&lt;b&amp;c: ");
  REQUIRE(wall != std::string::npos);
  REQUIRE(odd != std::string::npos);
  CHECK(wall < odd);
  CHECK(svg.find("idle") == std::string::npos);
  // Seconds in a readable unit on the axis.
  CHECK(svg.find(">wall_time (ms)</text>") != std::string::npos);
}

TEST_CASE("the duel plot draws one marker per run and side, warm-up runs hollow", "[report][plot]") {
  auto duel = fixed_duel();
  std::string svg = render_duel_svg(duel.config, duel.outcome);
  // Two panels; in each, ten measured runs per side, one warm-up run per side, and one
  // change per round. The baseline's markers are dots, the candidate's squares.
  using Counts = std::vector<std::size_t>;
  CHECK(markers_per_element(svg, "baseline") == Counts{10, 10});
  CHECK(markers_per_element(svg, "candidate") == Counts{10, 10});
  CHECK(markers_per_element(svg, "baseline warm-up") == Counts{1, 1});
  CHECK(markers_per_element(svg, "candidate warm-up") == Counts{1, 1});
  CHECK(markers_per_element(svg, "round") == Counts{10, 10});
  CHECK(markers_per_element(svg, "round warm-up") == Counts{1, 1});
  CHECK(svg.find("<g class=\"baseline warm-up\" fill=\"none\" stroke=\"#4477aa\">\n<circle ") !=
        std::string::npos);
  CHECK(svg.find("<g class=\"candidate warm-up\" fill=\"none\" stroke=\"#ee7733\">\n<rect ") !=
        std::string::npos);
  CHECK(count(svg, "stroke=\"#4477aa\" stroke-width=\"5\" stroke-linecap=\"round\"") == 2);
  CHECK(count(svg, "stroke=\"#ee7733\" stroke-width=\"5\" stroke-linecap=\"butt\"") == 2);

  // Rounds the analysis dropped as detected warm-up are drawn hollow too.
  duel.outcome.analysis.dropped_rounds = 2;
  svg = render_duel_svg(duel.config, duel.outcome);
  CHECK(markers_per_element(svg, "baseline") == Counts{8, 8});
  CHECK(markers_per_element(svg, "candidate warm-up") == Counts{3, 3});
  CHECK(markers_per_element(svg, "round warm-up") == Counts{3, 3});
}

TEST_CASE("the duel plot shows the estimate, its interval and the verdict", "[report][plot]") {
  const auto duel = fixed_duel();
  const auto& wall = duel.outcome.analysis.metrics[1];
  REQUIRE(wall.spec.name == "wall_time");
  REQUIRE(wall.verdict == Verdict::regression);
  REQUIRE(wall.estimate.status == stats::EstimateStatus::ok);
  const std::string svg = render_duel_svg(duel.config, duel.outcome);
  const std::string numbers = "wall_time: " + util::format_percent(wall.change, 1) + " [" +
                              util::format_percent(wall.ci.lo, 1) + ", " +
                              util::format_percent(wall.ci.hi, 1) + "]";
  CHECK(numbers.starts_with("wall_time: +50.0 % [+4"));
  CHECK(svg.find("<title>" + numbers + " regression</title>") != std::string::npos);
  CHECK(svg.find(numbers + " <tspan fill=\"#cc3311\" font-weight=\"bold\">regression</tspan>") !=
        std::string::npos);
  CHECK(svg.find("a&lt;b&amp;c: ") != std::string::npos);
  CHECK(svg.find("(info)</tspan>") != std::string::npos);  // the report-only metric
  CHECK(count(svg, "<rect class=\"ci\"") == 2);
  CHECK(count(svg, "<path class=\"estimate\"") == 2);
  CHECK(count(svg, "<rect class=\"tolerance\"") == 1);  // only wall time has a tolerance
  CHECK(svg.find(">±3 % tolerance</text>") != std::string::npos);
  CHECK(svg.find("perfduel: REGRESSION after 10 measured rounds") != std::string::npos);
}

TEST_CASE("the duel plot shows bytes in binary units and small changes with two decimals", "[report][plot]") {
  Config config;
  config.metrics = {metric("max_rss", "B", Gating::gated, 0.0)};
  config.autocorrelation_limit = 1.0;
  DuelOutcome outcome;
  for (int round = 0; round < 20; ++round) {
    const double base = 100 * 1024.0 * 1024.0 * (1 + 0.001 * (round % 3));
    outcome.runs.push_back({round, Side::baseline, false, {base}});
    outcome.runs.push_back({round, Side::candidate, false, {base * (1.0001 + 0.00002 * (round % 2))}});
  }
  outcome.analysis = analyze(config, outcome.runs, Finality::final);
  const std::string svg = render_duel_svg(config, outcome);
  CHECK(xml_problem(svg) == "");
  CHECK(svg.find(">max_rss (MiB)</text>") != std::string::npos);
  CHECK(svg.find(">100.10</text>") != std::string::npos);  // a tick, 100 MiB to 100.2 MiB
  CHECK(svg.find(">max_rss: +0.01 % [+0.01 %, +0.01 %] <tspan") != std::string::npos);
}

TEST_CASE("the duel plot escapes names and commands", "[report][plot]") {
  const auto duel = fixed_duel();
  const std::string svg = render_duel_svg(duel.config, duel.outcome);
  CHECK(svg.find("a<b&c") == std::string::npos);
  CHECK(svg.find("a&lt;b&amp;c") != std::string::npos);
  CHECK(svg.find("bench --size '&lt;10&gt;'") != std::string::npos);
  CHECK(svg.find("bench '--fast &amp; loose'") != std::string::npos);
}

TEST_CASE("the duel plot of a duel without runs says so", "[report][plot]") {
  Config config;
  config.metrics = {metric("wall_time", "s", Gating::gated, 0.0)};
  DuelOutcome outcome;
  outcome.end = DuelEnd::benchmark_failed;
  const std::string svg = render_duel_svg(config, outcome);
  CHECK(xml_problem(svg) == "");
  CHECK(svg.find(">no runs to plot</text>") != std::string::npos);
  CHECK(svg.find("perfduel: ERROR") != std::string::npos);
}

TEST_CASE("the duel plot of 2,000 rounds stays small", "[report][plot]") {
  auto duel = fixed_duel(2000);
  const std::string svg = render_duel_svg(duel.config, duel.outcome);
  CHECK(xml_problem(svg) == "");
  // Two panels of 2,001 rounds, three markers a round, coordinates with one decimal.
  using Counts = std::vector<std::size_t>;
  CHECK(markers_per_element(svg, "baseline") == Counts{2000, 2000});
  CHECK(markers_per_element(svg, "candidate warm-up") == Counts{1, 1});
  CHECK(markers_per_element(svg, "round") == Counts{2000, 2000});
  CHECK(max_marker_decimals(svg) == 1);
  CHECK(svg.size() < 200'000);
}

namespace {

// The width and height the SVG document declares.
std::pair<double, double> page_size(const std::string& svg) {
  static const std::regex k_size(R"~(^<svg [^>]*width="([0-9.]+)" height="([0-9.]+)")~");
  std::smatch match;
  REQUIRE(std::regex_search(svg, match, k_size));
  return {std::stod(match[1].str()), std::stod(match[2].str())};
}

// The translations of the panels ("x y"), in document order.
std::vector<std::string> panel_places(const std::string& svg) {
  std::vector<std::string> places;
  const std::string opening = "<g class=\"metric\" transform=\"translate(";
  for (auto at = svg.find(opening); at != std::string::npos; at = svg.find(opening, at + 1)) {
    const auto start = at + opening.size();
    places.push_back(svg.substr(start, svg.find(')', start) - start));
  }
  return places;
}

// `count` gated metrics m0, m1, ... in seconds, each with its own speed; those below `slower`
// 40 % slower on the candidate.
FixedDuel metrics_duel(std::size_t count, std::size_t slower) {
  FixedDuel duel;
  duel.config.min_rounds = 5;
  duel.config.autocorrelation_limit = 1.0;
  for (std::size_t m = 0; m < count; ++m) {
    duel.config.metrics.push_back(metric("m" + std::to_string(m), "s", Gating::gated, 0.05));
  }
  duel.outcome = testing::made_up_duel(duel.config, 12, [slower](std::size_t m, int round, Side side) {
    const double wobble = 1 + 0.01 * ((round * 7 + static_cast<int>(m)) % 5 - 2);
    return 1e-3 * static_cast<double>(m + 1) * wobble * (side == Side::candidate && m < slower ? 1.4 : 1.0);
  });
  return duel;
}

}  // namespace

TEST_CASE("the duel plot puts several panels side by side", "[report][plot]") {
  // One panel keeps the page; 2 to 4 take two columns; more, three.
  CHECK(page_size(render_duel_svg(metrics_duel(1, 0).config, metrics_duel(1, 0).outcome)) ==
        std::pair<double, double>{860, 104 + 452});
  const auto four = metrics_duel(4, 1);
  CHECK(page_size(render_duel_svg(four.config, four.outcome)) ==
        std::pair<double, double>{1240, 104 + 2 * 452});

  // Eight metrics: a 3 × 3 grid of 620-pixel panels, 1860 × 1460 instead of one column
  // 860 × 3624.
  const auto eight = metrics_duel(8, 2);
  std::string svg = render_duel_svg(eight.config, eight.outcome);
  CHECK(xml_problem(svg) == "");
  CHECK(page_size(svg) == std::pair<double, double>{1860, 1460});
  CHECK(panel_places(svg) == std::vector<std::string>{"0 104", "620 104", "1240 104", "0 556", "620 556",
                                                      "1240 556", "0 1008", "620 1008"});

  // Twenty metrics: the suite's chart of every one (18 pixels a row), then panels for the
  // changed ones only, in the same grid.
  const auto twenty = metrics_duel(20, 5);
  svg = render_duel_svg(twenty.config, twenty.outcome);
  CHECK(xml_problem(svg) == "");
  const double chart = 44 + 18 * 20 + 34;
  CHECK(page_size(svg) == std::pair<double, double>{1860, 104 + chart + 2 * 452});
  CHECK(panel_places(svg).size() == 5);
  CHECK(panel_places(svg)[3] == "0 " + std::to_string(static_cast<int>(104 + chart + 452)));
  CHECK(count(svg, "<g class=\"row\">") == 20);
}

TEST_CASE("a long metric name is cut at its start to fit a grid panel's title", "[report][plot]") {
  auto duel = metrics_duel(2, 1);
  const std::string name =
      "bench/BM_VeryLongTemplatedBenchmarkName<std::vector<std::string>>/1048576/real_time";
  duel.outcome.analysis.metrics[0].spec.name = name;
  const std::string svg = render_duel_svg(duel.config, duel.outcome);
  CHECK(xml_problem(svg) == "");
  CHECK(svg.find("<title>" + svg::escape(name) + ": +40.0") != std::string::npos);  // the tooltip: all of it
  const auto title = svg.find("<text class=\"title\"");
  REQUIRE(title != std::string::npos);
  const std::string text = svg.substr(title, svg.find("<tspan", title) - title);
  CHECK_THAT(text, Catch::Contains(">…") && Catch::Contains("/1048576/real_time: +40.0"));
  // 15-pixel title text in a 516-pixel plot width: about 63 characters with the verdict.
  std::string line = text.substr(text.find('>') + 1) + "regression";
  for (const std::string entity : {"&lt;", "&gt;", "&amp;"}) {
    for (auto at = line.find(entity); at != std::string::npos; at = line.find(entity)) {
      line.replace(at, entity.size(), "x");
    }
  }
  const auto characters = std::count_if(
      line.begin(), line.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U; });
  CHECK(characters <= 63);
}

TEST_CASE("the duel plot says what its numbers are", "[report][plot]") {
  const auto duel = fixed_duel();
  const std::string svg = render_duel_svg(duel.config, duel.outcome);
  CHECK(svg.find(">medians 10.00 ms → 15.00 ms · change: mean of paired log-ratios</text>") !=
        std::string::npos);
  auto median = fixed_duel();
  median.config.metrics[1].estimator = Estimator::median;
  median.outcome.analysis = analyze(median.config, median.outcome.runs, Finality::final);
  CHECK(render_duel_svg(median.config, median.outcome).find("· change: median of paired ratios</text>") !=
        std::string::npos);
}

TEST_CASE("the duel plot names the sign sequence where it showed a regression before the interval did",
          "[report][plot]") {
  auto duel = fixed_duel();
  auto& wall = duel.outcome.analysis.metrics[1];
  REQUIRE(wall.spec.name == "wall_time");
  CHECK(render_duel_svg(duel.config, duel.outcome).find("sign sequence:") == std::string::npos);
  wall.settled_by = SettledBy::signs;
  wall.signs_beyond = 9;
  wall.signs_rounds = 10;
  wall.ci = {-0.03, 2.2};
  CHECK(render_duel_svg(duel.config, duel.outcome)
            .find(fmt::format(">sign sequence: 9 of 10 rounds &gt; {} · ",
                              util::format_percent(signs_bound(wall.spec)))) != std::string::npos);
}

TEST_CASE("the duel plot draws a report-only metric's tiny certain change grey, not red", "[report][plot]") {
  for (const bool explicit_zero : {false, true}) {
    const Config config =
        explicit_zero ? parse_config("metrics: {max_rss: {tolerance: 0}}", "gate.yaml") : default_config();
    const DuelOutcome outcome = testing::made_up_duel(config, 20, testing::tiny_rss_change);
    const std::string svg = render_duel_svg(config, outcome);
    const auto title = svg.find(">max_rss: +0.02 % [");
    REQUIRE(title != std::string::npos);
    const std::string verdict = svg.substr(title, svg.find("</tspan>", title) - title);
    CHECK_THAT(verdict, Catch::EndsWith(
                            explicit_zero ? "<tspan fill=\"#cc3311\" font-weight=\"bold\">regression (info)"
                                          : "<tspan fill=\"#555555\" font-weight=\"bold\">no-change (info)"));
  }
}

TEST_CASE("every plot takes a verdict's colour from one table", "[report][plot]") {
  CHECK(verdict_colour(Verdict::regression) == "#cc3311");
  CHECK(verdict_colour(Verdict::improvement) == "#228833");
  CHECK(verdict_colour(Verdict::no_change) == "#555555");
  for (const auto undecided : {Verdict::pending, Verdict::inconclusive, Verdict::unstable}) {
    CHECK(verdict_colour(undecided) == "#aa7700");
  }
}

TEST_CASE("SVG helpers: escaping, round ticks and their labels", "[report][plot]") {
  CHECK(svg::escape("a<b&c \"d\" >\x01") == "a&lt;b&amp;c &quot;d&quot; &gt;?");
  CHECK(svg::escape("µs\ttab") == "µs\ttab");

  const auto unit = svg::nice_ticks(0, 1, 5);
  CHECK(unit.step == Approx(0.2));
  REQUIRE(unit.values.size() == 6);
  CHECK(unit.values[3] == Approx(0.6));
  const auto rounds = svg::nice_ticks(1, 2000, 8, 1);
  CHECK(rounds.step == 500);
  CHECK(rounds.values == std::vector<double>{500, 1000, 1500, 2000});
  CHECK(svg::nice_ticks(1, 7, 8, 1).values == std::vector<double>{1, 2, 3, 4, 5, 6, 7});
  CHECK(svg::nice_ticks(-12.5, 61, 5).values == std::vector<double>{0, 20, 40, 60});
  CHECK(svg::nice_ticks(-12.5, 61, 8).values == std::vector<double>{-10, 0, 10, 20, 30, 40, 50, 60});
  CHECK(svg::nice_ticks(3, 3, 5).values.empty());

  CHECK(svg::format_tick(0.1 + 0.2, 0.1) == "0.3");
  CHECK(svg::format_tick(-1e-17, 0.05) == "0.00");
  CHECK(svg::format_tick(1500, 500) == "1500");
  CHECK(svg::format_tick(20, 10, svg::Sign::explicit_plus) == "+20");
  CHECK(svg::format_tick(-20, 10, svg::Sign::explicit_plus) == "-20");
  CHECK(svg::format_tick(0, 10, svg::Sign::explicit_plus) == "0");

  const auto flat = svg::padded_range(2, 2, 0);
  CHECK(flat.low == Approx(1.9));
  CHECK(flat.high == Approx(2.1));
  const auto padded = svg::padded_range(0, 10, 0.05);
  CHECK(padded.low == Approx(-0.5));
  CHECK(padded.high == Approx(10.5));
}
