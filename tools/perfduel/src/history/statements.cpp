#include "history/statements.hpp"

#include <fmt/core.h>

namespace perfduel::history {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// `sql` with each $N parameter written ?N. Text in quotes (a literal, a quoted name) is left
// as it is; a doubled quote inside it closes and reopens it, which comes to the same.
std::string sqlite_parameters(std::string_view sql) {
  std::string text;
  text.reserve(sql.size());
  char quote = 0;  // the quote of the literal or name being read, or 0 outside one
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '$' && i + 1 < sql.size() && is_digit(sql[i + 1])) {
      text += '?';
      continue;
    }
    text += c;
  }
  return text;
}

}  // namespace

std::string render_statement(std::string_view sql, Dialect dialect) {
  // Byte order, as SQLite sorts by default, whatever the PostgreSQL database's locale; SQLite
  // has no collation "C" and PostgreSQL none named BINARY.
  const bool sqlite = dialect == Dialect::sqlite;
  const std::string text =
      fmt::format(fmt::runtime(sql), fmt::arg("byte_order", sqlite ? "COLLATE BINARY" : "COLLATE \"C\""));
  return sqlite ? sqlite_parameters(text) : text;
}

}  // namespace perfduel::history
