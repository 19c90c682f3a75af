#include "report_format/json_report.hpp"

#include "duel/verdict.hpp"
#include "report_format/report_fields.hpp"

namespace perfduel {

std::string overall_verdict(const DuelOutcome& outcome) {
  return verdict_word(outcome.end, outcome.analysis.verdict);
}

nlohmann::ordered_json report_to_json(const RunSummary& summary) {
  return report_field::write_fields(report_field::report_fields(), summary);
}

bool shows_signs(const MetricResult& result) {
  return result.settled_by == SettledBy::signs && (result.estimate.status != stats::EstimateStatus::ok ||
                                                   !interval_shows(result.ci, result.verdict, result.spec));
}

}  // namespace perfduel
