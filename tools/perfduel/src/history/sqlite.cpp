#include "history/sqlite.hpp"

namespace perfduel::history {

void Statement::bind(int index, double value) {
  sqlite3_bind_double(m_statement.get(), index, value);
}

void Statement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(m_statement.get(), index, value);
}

void Statement::bind(int index, std::string_view value) {
  sqlite3_bind_text(m_statement.get(), index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}

void Statement::bind(int index, const std::optional<double>& value) {
  if (value) {
    bind(index, *value);
  } else {
    sqlite3_bind_null(m_statement.get(), index);
  }
}

void Statement::bind(int index, const std::optional<std::string>& value) {
  if (value) {
    bind(index, std::string_view(*value));
  } else {
    sqlite3_bind_null(m_statement.get(), index);
  }
}

void Statement::reset() {
  sqlite3_reset(m_statement.get());
  sqlite3_clear_bindings(m_statement.get());
}

util::Expected<bool> Statement::step() {
  const int result = sqlite3_step(m_statement.get());
  if (result == SQLITE_ROW) {
    return true;
  }
  if (result == SQLITE_DONE) {
    return false;
  }
  return util::Expected<bool>::failure(sqlite3_errmsg(m_database));
}

double Statement::column_double(int index) const {
  return sqlite3_column_double(m_statement.get(), index);
}

std::int64_t Statement::column_int64(int index) const {
  return sqlite3_column_int64(m_statement.get(), index);
}

std::string Statement::column_text(int index) const {
  const auto* text = sqlite3_column_text(m_statement.get(), index);
  if (text == nullptr) {
    return {};
  }
  return {reinterpret_cast<const char*>(text),
          static_cast<std::size_t>(sqlite3_column_bytes(m_statement.get(), index))};
}

std::optional<double> Statement::column_optional_double(int index) const {
  if (column_is_null(index)) {
    return std::nullopt;
  }
  return column_double(index);
}

bool Statement::column_is_null(int index) const {
  return sqlite3_column_type(m_statement.get(), index) == SQLITE_NULL;
}

util::Expected<Database> Database::open(const std::filesystem::path& path, CreateFile create) {
  sqlite3* handle = nullptr;
  const int flags =
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create == CreateFile::yes ? SQLITE_OPEN_CREATE : 0);
  const int result = sqlite3_open_v2(path.c_str(), &handle, flags, nullptr);
  if (result != SQLITE_OK) {
    std::string message = handle != nullptr ? sqlite3_errmsg(handle) : sqlite3_errstr(result);
    sqlite3_close_v2(handle);
    return util::Expected<Database>::failure(std::move(message));
  }
  sqlite3_extended_result_codes(handle, 1);
  return Database(handle);
}

util::Expected<Done> Database::execute(std::string_view sql) {
  const std::string text(sql);
  char* message = nullptr;
  if (sqlite3_exec(m_database.get(), text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string error = message != nullptr ? message : error_message();
    sqlite3_free(message);
    return util::Expected<Done>::failure(std::move(error));
  }
  return Done{};
}

util::Expected<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(m_database.get(), sql.data(), static_cast<int>(sql.size()), &statement, nullptr) !=
      SQLITE_OK) {
    return util::Expected<Statement>::failure(error_message());
  }
  return Statement(m_database.get(), statement);
}

util::Expected<std::int64_t> Database::query_int(std::string_view sql) {
  auto statement = prepare(sql);
  if (!statement) {
    return util::Expected<std::int64_t>::failure(statement.error());
  }
  Statement& query = statement.value();
  auto row = query.step();
  if (!row) {
    return util::Expected<std::int64_t>::failure(row.error());
  }
  return *row ? query.column_int64(0) : 0;
}

void Database::set_busy_timeout(int milliseconds) {
  sqlite3_busy_timeout(m_database.get(), milliseconds);
}

}  // namespace perfduel::history
