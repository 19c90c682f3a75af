#include "report/progress.hpp"

#include <cmath>

#include <fmt/format.h>
#include <unistd.h>

#include "report/labels.hpp"
#include "util/text.hpp"

namespace perfduel {

ProgressStyle detect_progress_style(std::FILE* stream) {
  return ::isatty(::fileno(stream)) != 0 ? ProgressStyle::live : ProgressStyle::log;
}

namespace {

// One gated metric as its stopping rules see it: the change, then what the width rule tests
// (the interval's width, with σ at its stopping bound, against the threshold) and, under hybrid
// stopping, the confidence sequence against the tolerance band. A settled metric says how.
std::string metric_progress(const MetricResult& result) {
  const auto& spec = result.spec;
  if (result.zero_side) {  // a count from or to 0: no interval to narrow
    return fmt::format("{} {}{}", spec.name, change_label(result),
                       result.settled_by == SettledBy::none
                           ? fmt::format(", min_rounds {}", result.min_rounds)
                           : " " + to_string(result.verdict));
  }
  if (result.estimate.status != stats::EstimateStatus::ok) {
    return fmt::format("{} …", spec.name);
  }
  std::string text = fmt::format("{} {}", spec.name, util::format_percent(result.change));
  if (result.estimator == Estimator::ratio) {
    text += " (ratio of means)";  // the metric read 0: not the mean log-ratio of the others
  }
  if (result.settled_by != SettledBy::none) {
    return text + fmt::format(" {} ({})", to_string(result.verdict), to_string(result.settled_by));
  }
  if (!result.enough_rounds) {
    // The interval of the first rounds says little (two rounds make it 10^15 % wide and
    // project thousands of rounds): the metric waits for its minimum (min_rounds, which a
    // regression its sign sequence shows may cut short).
    return text + fmt::format(", min_rounds {}", result.min_rounds);
  }
  text += result.estimate.provisional
              ? " width: waits for batching"
              : fmt::format(" width {}/{}", util::format_percent(result.stopping_width).substr(1),
                            util::format_percent(spec.threshold).substr(1));
  if (result.sequence) {
    const std::string band =
        spec.tolerance > 0 ? fmt::format("±{}", util::format_percent(spec.tolerance).substr(1)) : "0";
    text += fmt::format(", sequence [{}, {}] vs {}", util::format_percent(result.sequence->lo),
                        util::format_percent(result.sequence->hi), band);
  }
  // What the budget has to reach: the rounds this metric would settle at, at the rate so far.
  if (std::isfinite(result.projected_rounds) &&
      result.projected_rounds > static_cast<double>(result.estimate.rounds)) {
    text += fmt::format(", settles at ~{:.0f} rounds", std::ceil(result.projected_rounds));
  }
  return text;
}

}  // namespace

std::string format_progress(const Analysis& analysis, double elapsed_seconds) {
  std::string line =
      fmt::format("round {:>4}  {:>9}", analysis.measured_rounds, util::format_seconds(elapsed_seconds));
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating == Gating::gated) {
      line += "  " + metric_progress(result);
    }
  }
  return line;
}

Progress::Progress(ProgressStyle style, std::FILE* stream, double log_interval)
    : m_style(style), m_stream(stream), m_log_interval(log_interval) {}

void Progress::update(const Analysis& analysis, double elapsed_seconds) {
  switch (m_style) {
    case ProgressStyle::quiet:
      return;
    case ProgressStyle::live:
      fmt::print(m_stream, "\r\033[K{}", format_progress(analysis, elapsed_seconds));
      std::fflush(m_stream);
      m_line_shown = true;
      return;
    case ProgressStyle::log:
      if (elapsed_seconds - m_last_log >= m_log_interval) {
        fmt::print(m_stream, "perfduel: {}\n", format_progress(analysis, elapsed_seconds));
        std::fflush(m_stream);
        m_last_log = elapsed_seconds;
      }
      return;
  }
}

void Progress::note(const std::string& text) {
  if (m_style == ProgressStyle::quiet) {
    return;
  }
  finish();
  fmt::print(m_stream, "perfduel: note: {}\n", text);
  std::fflush(m_stream);
}

void Progress::finish() {
  if (m_line_shown) {
    fmt::print(m_stream, "\r\033[K");
    std::fflush(m_stream);
    m_line_shown = false;
  }
}

}  // namespace perfduel
