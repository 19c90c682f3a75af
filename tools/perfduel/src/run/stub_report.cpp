#include "run/stub_report.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>

#include <unistd.h>

namespace perfduel {

std::optional<StubReport> read_stub_report(int fd) {
  std::array<char, 128> buffer{};
  const auto count = ::read(fd, buffer.data(), buffer.size() - 1);
  if (count <= 0) {
    return std::nullopt;
  }
  std::array<long long, 3> fields{};
  const char* cursor = buffer.data();
  for (auto& field : fields) {
    char* end = nullptr;
    errno = 0;
    field = std::strtoll(cursor, &end, 10);
    if (end == cursor || errno != 0) {
      return std::nullopt;
    }
    cursor = end;
  }
  return StubReport{static_cast<pid_t>(fields[0]),
                    std::chrono::steady_clock::time_point(std::chrono::nanoseconds(fields[1])),
                    static_cast<int>(fields[2])};
}

}  // namespace perfduel
