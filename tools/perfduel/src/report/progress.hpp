#pragma once

#include <cstdio>
#include <string>

#include "duel/analysis.hpp"

namespace perfduel {

enum class ProgressStyle {
  live,   // a terminal: one line rewritten in place after every round
  log,    // a CI log: a plain line every few seconds
  quiet,  // nothing
};

// The style that suits `stream`: live on a terminal, log otherwise.
ProgressStyle detect_progress_style(std::FILE* stream);

// One line of progress: rounds, elapsed time, and each gated metric's current change and
// half-width against its target half-width.
std::string format_progress(const Analysis& analysis, double elapsed_seconds);

// Shows progress on `stream` in `style`; in log style at most one line per `log_interval`
// seconds.
class Progress {
 public:
  Progress(ProgressStyle style, std::FILE* stream, double log_interval = 5.0);

  // Shows the state after a round.
  void update(const Analysis& analysis, double elapsed_seconds);

  // Prints `text` as a note line ("perfduel: note: ...") as the duel makes it, clearing the live
  // line first; nothing in quiet style (the final report has the note).
  void note(const std::string& text);

  // Clears the live line before the final report is printed.
  void finish();

 private:
  ProgressStyle m_style;
  std::FILE* m_stream;
  double m_log_interval;
  double m_last_log = -1e9;
  bool m_line_shown = false;
};

}  // namespace perfduel
