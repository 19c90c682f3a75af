#include "history/recording.hpp"

#include <utility>

#include <fmt/core.h>

#include "history/provenance.hpp"
#include "machine/facts.hpp"
#include "stats/descriptive.hpp"
#include "util/json_file.hpp"

namespace perfduel::history {

Record record_of_values(const std::string& metric, const std::vector<double>& values,
                        const std::optional<std::string>& unit, std::optional<stats::Direction> direction) {
  Record record;
  record.source = "values";
  Measurement m;
  m.metric = metric;
  m.samples = values;
  m.value = stats::median(values);
  m.unit = unit;
  if (direction) {
    m.direction = util::name_of(stats::k_direction_names, *direction);
  }
  record.measurements.push_back(std::move(m));
  return record;
}

void fill_provenance(Record& record, const GivenProvenance& given) {
  if (given.time) {
    record.recorded_at = *given.time;
  } else if (record.recorded_at.empty()) {
    record.recorded_at = util::now_iso8601();
  }
  record.commit = given.commit ? given.commit : git_commit();
  record.branch = given.branch ? given.branch : git_branch();
  if (given.machine) {
    record.machine = *given.machine;
  } else if (record.machine.empty()) {
    record.machine = machine_fingerprint(read_machine_facts()).description;
  }
  record.machine_id = machine_id(record.machine);
  if (given.run_id) {
    record.run_key = *given.run_id;
  } else if (record.run_key && record.commit) {
    // One run of the gate at one commit: the same report recorded for another commit is
    // another point of the series.
    record.run_key = fmt::format("{}@{}", *record.run_key, *record.commit);
  }
  if (given.config_hash) {
    record.config_hash = *given.config_hash;
  }
}

}  // namespace perfduel::history
