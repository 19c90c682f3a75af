// The statements both stores run and the rows they read and write, each written once
// (history/statements.hpp).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "history/schema.hpp"
#include "history/statements.hpp"
#include "history/store.hpp"

using namespace perfduel::history;

TEST_CASE("one statement text for both stores: parameters and byte order per dialect", "[history]") {
  CHECK(render_statement(k_rekey_machine, Dialect::postgresql) ==
        "UPDATE records SET machine = $1, machine_id = $2 WHERE id = CAST($3 AS BIGINT)");
  CHECK(render_statement(k_rekey_machine, Dialect::sqlite) ==
        "UPDATE records SET machine = ?1, machine_id = ?2 WHERE id = CAST(?3 AS BIGINT)");
  // Parameters past 9 keep their number; a dollar in a literal or a quoted name is text.
  CHECK(
      render_statement(R"(SELECT '$1', "$2", $10 FROM t WHERE a = 'it''s $3' AND b = $3)", Dialect::sqlite) ==
      R"(SELECT '$1', "$2", ?10 FROM t WHERE a = 'it''s $3' AND b = ?3)");
  CHECK(render_statement("SELECT name FROM t ORDER BY name {byte_order}", Dialect::sqlite) ==
        "SELECT name FROM t ORDER BY name COLLATE BINARY");
  CHECK(render_statement("SELECT name FROM t ORDER BY name {byte_order}", Dialect::postgresql) ==
        R"(SELECT name FROM t ORDER BY name COLLATE "C")");
}

namespace {

// A row of k_series given as text, NULL as nothing: what both stores' rows look like to the
// decoder.
class TextRow final : public ResultRow {
 public:
  explicit TextRow(std::vector<std::optional<std::string>> columns) : m_columns(std::move(columns)) {}
  std::string text(int column) const override { return m_columns.at(column).value_or(""); }
  std::optional<std::string> optional_text(int column) const override { return m_columns.at(column); }
  double number(int column) const override { return std::stod(text(column)); }
  std::optional<double> optional_number(int column) const override {
    return m_columns.at(column) ? std::optional<double>(number(column)) : std::nullopt;
  }
  std::int64_t integer(int column) const override { return std::stoll(text(column)); }

 private:
  std::vector<std::optional<std::string>> m_columns;
};

}  // namespace

TEST_CASE("a series row is decoded once for both stores, NULLs as nothing", "[history]") {
  const SeriesPoint full =
      decode_series_row(TextRow({"7", "2026-11-01T00:00:00Z", "abc", "main", "m1", "s", "lower", "1.5",
                                 "[1.5,1.6]", "1.4", "0.07", "0.01", "0.12", "regression", "cfg123"}),
                        "wall_time");
  CHECK(full.record_id == 7);
  CHECK(full.recorded_at == "2026-11-01T00:00:00Z");
  CHECK(full.commit == "abc");
  CHECK(full.branch == "main");
  CHECK(full.machine_id == "m1");
  CHECK(full.measurement.metric == "wall_time");
  CHECK(full.measurement.unit == "s");
  CHECK(full.measurement.direction == "lower");
  CHECK(full.measurement.value == 1.5);
  CHECK(full.measurement.samples == std::vector<double>{1.5, 1.6});
  CHECK(full.measurement.baseline == 1.4);
  CHECK(full.measurement.change == 0.07);
  CHECK(full.measurement.ci_low == 0.01);
  CHECK(full.measurement.ci_high == 0.12);
  CHECK(full.measurement.verdict == "regression");
  CHECK(full.config_hash == "cfg123");
  const SeriesPoint sparse = decode_series_row(
      TextRow({"8", "2026-11-02T00:00:00Z", std::nullopt, std::nullopt, "m1", std::nullopt, std::nullopt, "2",
               "[]", std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt}),
      "x");
  CHECK_FALSE(sparse.commit);
  CHECK_FALSE(sparse.branch);
  CHECK_FALSE(sparse.measurement.unit);
  CHECK_FALSE(sparse.measurement.baseline);
  CHECK_FALSE(sparse.measurement.ci_high);
  CHECK_FALSE(sparse.measurement.verdict);
  CHECK_FALSE(sparse.config_hash);
  CHECK(sparse.measurement.samples.empty());
}

namespace {

// The parameters a store would bind, as text by number from 1 (NULL as nothing), each number
// and integer marked with its kind: what both stores' bindings look like to the encoder.
class RecordedParameters final : public RowParameters {
 public:
  void text(int index, const std::optional<std::string>& value) override { m_values[index] = value; }
  void number(int index, const std::optional<double>& value) override {
    m_values[index] = value ? std::optional<std::string>("number " + std::to_string(*value)) : std::nullopt;
  }
  void integer(int index, std::int64_t value) override {
    m_values[index] = "integer " + std::to_string(value);
  }
  const std::map<int, std::optional<std::string>>& values() const { return m_values; }

 private:
  std::map<int, std::optional<std::string>> m_values;
};

}  // namespace

TEST_CASE("a record and its measurements are encoded once for both stores, nothing as NULL", "[history]") {
  Record record;
  record.recorded_at = "2026-11-01T00:00:00Z";
  record.branch = "main";
  record.machine = "host | CPU | 6.1";
  record.machine_id = "m1";
  record.source = "values";
  record.run_key = "key";
  RecordedParameters record_row;
  encode_record_row(record_row, record);
  CHECK(record_row.values() == std::map<int, std::optional<std::string>>{{1, "2026-11-01T00:00:00Z"},
                                                                         {2, std::nullopt},
                                                                         {3, "main"},
                                                                         {4, "host | CPU | 6.1"},
                                                                         {5, "m1"},
                                                                         {6, "values"},
                                                                         {7, std::nullopt},
                                                                         {8, std::nullopt},
                                                                         {9, "key"},
                                                                         {10, std::nullopt}});
  Measurement measurement;
  measurement.metric = "wall_time";
  measurement.unit = "s";
  measurement.value = 1.5;
  measurement.samples = {1.5, 1.6};
  measurement.change = 0.25;
  measurement.verdict = "regression";
  RecordedParameters measurement_row;
  encode_measurement_row(measurement_row, 7, measurement);
  CHECK(measurement_row.values() ==
        std::map<int, std::optional<std::string>>{{1, "integer 7"},
                                                  {2, "wall_time"},
                                                  {3, "s"},
                                                  {4, std::nullopt},
                                                  {5, "number 1.500000"},
                                                  {6, encode_samples(measurement.samples)},
                                                  {7, std::nullopt},
                                                  {8, "number 0.250000"},
                                                  {9, std::nullopt},
                                                  {10, std::nullopt},
                                                  {11, "regression"}});
}
