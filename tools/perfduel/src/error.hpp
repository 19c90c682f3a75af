#pragma once

#include <stdexcept>
#include <string>

#include "exit_codes.hpp"

namespace perfduel {

// The one exception type of the product, above the generic util/ helpers (which return
// util::Expected instead). The higher layers throw it. `main` catches it once and prints
// "perfduel: error: <message>", then exits with `exit_code`.
class Error : public std::runtime_error {
 public:
  // `message` is the whole one-line cause, already naming the file, line or argument.
  explicit Error(const std::string& message, ExitCode exit_code = ExitCode::usage);

  ExitCode exit_code() const { return m_exit_code; }

 private:
  ExitCode m_exit_code;
};

}  // namespace perfduel
