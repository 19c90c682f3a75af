#include "run/streams.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <string>

#include <unistd.h>

namespace perfduel {

namespace {

// Appends what is readable on `fd` to `buffer`, keeping at most `cap` bytes (the head for
// stdout, the tail for stderr); sets `dropped` when bytes were left out. Returns false at end
// of file.
bool drain(int fd, std::string& buffer, std::size_t cap, bool keep_tail, bool& dropped) {
  std::array<char, 65536> chunk{};
  const auto count = ::read(fd, chunk.data(), chunk.size());
  if (count <= 0) {
    return count < 0 && (errno == EINTR || errno == EAGAIN);
  }
  const auto size = static_cast<std::size_t>(count);
  if (keep_tail) {
    buffer.append(chunk.data(), size);
    if (buffer.size() > cap) {
      buffer.erase(0, buffer.size() - cap);
      dropped = true;
    }
  } else {
    const std::size_t kept = std::min(size, cap - std::min(cap, buffer.size()));
    buffer.append(chunk.data(), kept);
    dropped = dropped || kept < size;
  }
  return true;
}

}  // namespace

void Streams::read(short out_events, short err_events, RunResult& result) {
  if (out_events != 0) {
    out_open = drain(out.read_end(), result.out, k_max_stdout_bytes, false, result.out_truncated);
  }
  if (err_events != 0) {
    bool dropped = false;  // only the tail of stderr is ever shown
    err_open = drain(err.read_end(), result.err, k_max_stderr_bytes, true, dropped);
  }
}

}  // namespace perfduel
