#pragma once

#include <span>
#include <string>
#include <vector>

#include "report_format/field_table.hpp"
#include "report_format/json_report.hpp"
#include "report_format/saved_report.hpp"

// The fields of the JSON report (`perfduel compare --json`), one table per section, each field
// one line: its name, how it is written and how it is read back (report_format/field_table.hpp).
// The writer (report_format/json_report.cpp) and the strict and lenient readers
// (report_format/saved_report.cpp) go through them. No other file reads a report by these
// names: they read a SavedReport (tests/lint/report_fields.sh holds the tree to that, taking the
// names from the descriptors, `{"name", …`, `member("name", …` or `named("name", …`).
namespace perfduel::report_field {

// A metric's result as written ("metrics" items): its environment decides at_driver_floor.
struct MetricInReport {
  const MetricResult& result;
  const Environment& environment;
};

// A run with the metric of each of its values ("runs" items, their "values" by metric name).
struct NamedRun {
  RunRecord run;
  std::span<const std::string> names;
};

// The report's top level, in the order written; "runs" is read apart (run_fields()), by the
// strict reader only once the configuration is read.
const FieldTable<RunSummary, SavedReport>& report_fields();
// A metric's result ("metrics" items).
const FieldTable<MetricInReport, SavedMetric>& metric_fields();
// A run ("runs" items).
const FieldTable<NamedRun>& run_fields();

// The sections written and read whole as one type (write_value, read_value), each table in
// report_format/report_fields.cpp or, for an explanation's, report_format/explanation_fields.cpp.
template <>
struct Table<Environment> {
  static const FieldTable<Environment>& fields();
};
template <>
struct Table<Pinning> {
  static const FieldTable<Pinning>& fields();
};
template <>
struct Table<SuiteChanges> {
  static const FieldTable<SuiteChanges>& fields();
};
template <>
struct Table<Reanalysis> {
  static const FieldTable<Reanalysis>& fields();
};
template <>
struct Table<FingerprintedFile> {
  static const FieldTable<FingerprintedFile>& fields();
};
template <>
struct Table<ProgramFingerprint> {
  static const FieldTable<ProgramFingerprint>& fields();
};
template <>
struct Table<ProgramComparison> {
  static const FieldTable<ProgramComparison>& fields();
};
template <>
struct Table<FunctionShare> {
  static const FieldTable<FunctionShare>& fields();
};
template <>
struct Table<CostMove> {
  static const FieldTable<CostMove>& fields();
};
template <>
struct Table<Explanation> {
  static const FieldTable<Explanation>& fields();
};

}  // namespace perfduel::report_field
