#pragma once

#include <string>
#include <utility>
#include <variant>

namespace perfduel::util {

// A value or the error message written where the failure was seen (C++20 has no
// std::expected). Low-level functions return this; higher layers turn errors into
// perfduel::Error with the file, line or argument added.
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value)
      : m_state(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)

  static Expected failure(std::string message) {
    return Expected(std::in_place_index<1>, std::move(message));
  }

  bool ok() const { return m_state.index() == 0; }
  explicit operator bool() const { return ok(); }

  const T& value() const& { return std::get<0>(m_state); }
  T& value() & { return std::get<0>(m_state); }
  T&& value() && { return std::get<0>(std::move(m_state)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

  const std::string& error() const { return std::get<1>(m_state); }

 private:
  template <std::size_t I>
  Expected(std::in_place_index_t<I> index, std::string message) : m_state(index, std::move(message)) {}

  std::variant<T, std::string> m_state;
};

// The failure of an Expected<T> with `message`, where T is not deduced from a value:
// `return util::fail<Done>("cannot read ...")`.
template <typename T>
Expected<T> fail(std::string message) {
  return Expected<T>::failure(std::move(message));
}

}  // namespace perfduel::util
