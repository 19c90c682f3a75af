#include "util/file.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

namespace perfduel::util {

namespace {

// Writes all of `text` to `fd`, through short writes and interrupted calls.
bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const auto written = ::write(fd, text.data(), text.size());
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

}  // namespace

std::string read_file_chunks(const std::filesystem::path& path,
                             const std::function<void(std::string_view)>& chunk) {
  const auto failure = [&](int error) {
    return fmt::format("{}: cannot read ({})", path.string(), std::strerror(error));
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return failure(errno);
  }
  std::array<char, 1 << 16> buffer{};
  for (;;) {
    const auto got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      const int read_errno = errno;
      ::close(fd);
      return failure(read_errno);
    }
    if (got == 0) {
      break;
    }
    chunk(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
  }
  ::close(fd);
  return {};
}

Expected<std::string> read_file(const std::filesystem::path& path) {
  std::string text;
  if (auto error = read_file_chunks(path, [&](std::string_view chunk) { text += chunk; }); !error.empty()) {
    return Expected<std::string>::failure(std::move(error));
  }
  return text;
}

std::string write_file_atomically(const std::filesystem::path& path, std::string_view text) {
  auto temporary = path;
  temporary += fmt::format(".tmp.{}", ::getpid());
  ::unlink(temporary.c_str());  // ours from an earlier attempt of this process, if any
  // O_EXCL: a fresh file, so neither a file nor a symbolic link already there is written through.
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, k_created_file_mode);
  if (fd < 0) {
    return fmt::format("cannot create {}: {}", temporary.string(), std::strerror(errno));
  }
  const bool written = write_all(fd, text);
  const int write_errno = errno;
  if (::close(fd) != 0 || !written) {
    ::unlink(temporary.c_str());
    return fmt::format("write failed: {}", std::strerror(written ? errno : write_errno));
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    ::unlink(temporary.c_str());
    return fmt::format("cannot replace it: {}", std::strerror(rename_errno));
  }
  return {};
}

PrivateDirectory::PrivateDirectory(std::string_view prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / fmt::format("{}-XXXXXX", prefix)).string();
  if (::mkdtemp(pattern.data()) != nullptr) {
    m_path = pattern;
  }
}

PrivateDirectory::~PrivateDirectory() {
  std::error_code ignored;
  if (!m_path.empty()) {
    std::filesystem::remove_all(m_path, ignored);
  }
}

}  // namespace perfduel::util
