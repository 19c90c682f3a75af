#include "report/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "util/text.hpp"

namespace perfduel {

ProgressStyle detect_progress_style(std::FILE* stream) {
  return ::isatty(::fileno(stream)) != 0 ? ProgressStyle::live : ProgressStyle::log;
}

std::string format_progress(const Analysis& analysis, double elapsed_seconds) {
  std::string line =
      fmt::format("round {:>4}  {:>9}", analysis.measured_rounds, util::format_seconds(elapsed_seconds));
  for (const auto& result : analysis.metrics) {
    if (result.spec.gating != Gating::gated) {
      continue;
    }
    if (result.estimate.status != stats::EstimateStatus::ok) {
      line += fmt::format("  {} …", result.spec.name);
      continue;
    }
    line += fmt::format("  {} {} ±{} (target ±{})", result.spec.name, util::format_percent(result.change),
                        util::format_percent(result.ci.width() / 2).substr(1),
                        util::format_percent(result.spec.threshold / 2).substr(1));
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

void Progress::finish() {
  if (m_line_shown) {
    fmt::print(m_stream, "\r\033[K");
    std::fflush(m_stream);
    m_line_shown = false;
  }
}

}  // namespace perfduel
