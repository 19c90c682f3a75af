#include "util/sha256.hpp"

#include <array>
#include <stdexcept>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "util/file.hpp"

namespace perfduel::util {

struct Sha256::Context {
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(context); }
};

Sha256::Sha256() : m_context(std::make_unique<Context>()) {
  // Only allocation can fail here (SHA-256 is always available in libcrypto): as for new.
  if (m_context->context == nullptr || EVP_DigestInit_ex(m_context->context, EVP_sha256(), nullptr) != 1) {
    throw std::bad_alloc();
  }
}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view bytes) {
  EVP_DigestUpdate(m_context->context, bytes.data(), bytes.size());
}

std::string Sha256::hex_digest() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  EVP_DigestFinal_ex(m_context->context, digest.data(), &length);
  std::string hex;
  hex.reserve(2 * std::size_t{length});
  for (unsigned int i = 0; i < length; ++i) {
    hex += fmt::format("{:02x}", digest[i]);
  }
  return hex;
}

std::string sha256_hex(std::string_view text) {
  Sha256 hash;
  hash.update(text);
  return hash.hex_digest();
}

Expected<std::string> sha256_of_file(const std::filesystem::path& path) {
  Sha256 hash;
  if (auto error = read_file_chunks(path, [&](std::string_view chunk) { hash.update(chunk); });
      !error.empty()) {
    return Expected<std::string>::failure(std::move(error));
  }
  return hash.hex_digest();
}

}  // namespace perfduel::util
