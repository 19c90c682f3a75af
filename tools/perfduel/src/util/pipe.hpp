#pragma once

#include <array>
#include <cstddef>

#include <fcntl.h>
#include <unistd.h>

namespace perfduel::util {

// A pipe whose ends close themselves.
class Pipe {
 public:
  // `open` false: no pipe (both ends -1), for one that is only needed sometimes.
  explicit Pipe(bool open = true) {
    if (open && ::pipe2(m_fds.data(), O_CLOEXEC) != 0) {
      m_fds = {-1, -1};
    }
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    close_read();
    close_write();
  }
  bool ok() const { return m_fds[0] >= 0; }
  int read_end() const { return m_fds[0]; }
  int write_end() const { return m_fds[1]; }
  void close_read() { close_end(0); }
  void close_write() { close_end(1); }

 private:
  void close_end(std::size_t end) {
    if (m_fds[end] >= 0) {
      ::close(m_fds[end]);
      m_fds[end] = -1;
    }
  }
  std::array<int, 2> m_fds{-1, -1};
};

}  // namespace perfduel::util
