#include "error.hpp"

namespace perfduel {

Error::Error(const std::string& message, ExitCode exit_code)
    : std::runtime_error(message), m_exit_code(exit_code) {}

}  // namespace perfduel
