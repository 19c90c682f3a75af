#pragma once

#include "bisect/search.hpp"
#include "report_format/saved_report.hpp"

namespace perfduel::bisect {

// What the report of one `perfduel compare --json` duel says for the search, at the cut θ that
// probe_config.hpp puts in every gated metric's tolerance: bad when some gated metric's
// interval lies entirely on its worse side of θ (lower is better: above +θ; higher is better:
// below −θ), good when every gated metric's interval lies entirely on the other side, else
// unresolved; failed for a duel whose benchmark failed (the report's "error"), interrupted for
// an interrupted one. The metric shown is the first bad one, else the gated metric whose
// interval reaches furthest to its worse side. Reads only what the report says; nothing is
// re-analysed.
DuelReading read_duel_report(const SavedReport& report);

}  // namespace perfduel::bisect
