#pragma once

// The kinds of value a configuration key holds (fraction, whole number, duration, ...), each
// a constexpr function of the member it sets that builds the key's Value (config/keys.hpp):
// `fraction<&Config::confidence>(0.5, 0.9999)`. Only config/keys.cpp builds rows with them.

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "config/keys.hpp"
#include "config/yaml_reader.hpp"
#include "util/name_table.hpp"

namespace perfduel::config::kinds {

// The class of a pointer to member (`Config` for `&Config::confidence`).
template <typename Pointer>
struct MemberTraits;
template <typename Class, typename Field>
struct MemberTraits<Field Class::*> {
  using Target = Class;
};
template <auto member>
using TargetOf = typename MemberTraits<decltype(member)>::Target;

template <auto member>
bool same_member(const TargetOf<member>& a, const TargetOf<member>& b) {
  return a.*member == b.*member;
}

template <auto member>
void copy_member(const TargetOf<member>& from, TargetOf<member>& to) {
  to.*member = from.*member;
}

template <auto member>
void write_member(const TargetOf<member>& target, const std::string& key, nlohmann::ordered_json& json) {
  json[key] = target.*member;
}

// A Value of its five operations (the range, check and noun left empty).
template <typename Target>
constexpr Value<Target> operations(decltype(Value<Target>::read) read, decltype(Value<Target>::same) same,
                                   decltype(Value<Target>::text) text, decltype(Value<Target>::write) write,
                                   decltype(Value<Target>::copy) copy) {
  Value<Target> value;
  value.read = read;
  value.same = same;
  value.text = text;
  value.write = write;
  value.copy = copy;
  return value;
}

// A Value of `member` read by `read`, shown by `text`, written as it is.
template <auto member>
constexpr Value<TargetOf<member>> plain(decltype(Value<TargetOf<member>>::read) read,
                                        decltype(Value<TargetOf<member>>::text) text) {
  return operations<TargetOf<member>>(read, same_member<member>, text, write_member<member>,
                                      copy_member<member>);
}

// Reads `member` by the Reader function `read` that takes the node and the key alone
// (Reader::duration, Reader::boolean, Reader::scalar).
template <auto member, auto read>
void read_by(const Value<TargetOf<member>>& /*self*/, const Reader& reader, const YAML::Node& node,
             const std::string& key, TargetOf<member>& target) {
  target.*member = (reader.*read)(node, key);
}

// Reads `member` by the Reader function `read` that also takes the Value's range
// (Reader::fraction, Reader::number).
template <auto member, auto read>
void read_in_range(const Value<TargetOf<member>>& self, const Reader& reader, const YAML::Node& node,
                   const std::string& key, TargetOf<member>& target) {
  target.*member = (reader.*read)(node, key, self.min, self.max);
}

// A Value of `member` in [`min`, `max`], read by the Reader function `read` that takes the range
// and shown by `text`.
template <auto member, auto read, auto text>
constexpr Value<TargetOf<member>> in_range(double min, double max) {
  auto value = plain<member>(read_in_range<member, read>, text);
  value.min = min;
  value.max = max;
  return value;
}

// --- Fractions: "2%" or 0.02, shown as "2 %" ---------------------------------------------

template <auto member>
std::string percent_text(const Value<TargetOf<member>>& /*self*/, const TargetOf<member>& target) {
  return fmt::format("{:g} %", 100 * (target.*member));
}

// A fraction in [`min`, `max`].
template <auto member>
constexpr Value<TargetOf<member>> fraction(double min, double max) {
  return in_range<member, &Reader::fraction, percent_text<member>>(min, max);
}

// --- Numbers ---------------------------------------------------------------------------------

template <auto member>
std::string number_text(const Value<TargetOf<member>>& /*self*/, const TargetOf<member>& target) {
  return fmt::format("{:g}", target.*member);
}

// A plain number in [`min`, `max`].
template <auto member>
constexpr Value<TargetOf<member>> number(double min, double max) {
  return in_range<member, &Reader::number, number_text<member>>(min, max);
}

// The largest whole number a configuration takes.
inline constexpr double k_max_whole = 1e9;

template <auto member>
void read_whole(const Value<TargetOf<member>>& self, const Reader& reader, const YAML::Node& node,
                const std::string& key, TargetOf<member>& target) {
  target.*member = reader.integer(node, key, static_cast<int>(self.min));
}

template <auto member>
std::string whole_text(const Value<TargetOf<member>>& self, const TargetOf<member>& target) {
  return self.noun.empty() ? fmt::format("{}", target.*member)
                           : fmt::format("{} {}", target.*member, self.noun);
}

// A whole number of at least `min`; `noun` follows it in its text ("1 warm-up rounds").
template <auto member>
constexpr Value<TargetOf<member>> whole(int min, std::string_view noun = {}) {
  auto value = plain<member>(read_whole<member>, whole_text<member>);
  value.min = min;
  value.max = k_max_whole;
  value.noun = noun;
  return value;
}

// --- Durations: 90, 90s, 1.5m, 250ms, in seconds --------------------------------------------

template <auto member>
std::string seconds_text(const Value<TargetOf<member>>& /*self*/, const TargetOf<member>& target) {
  return fmt::format("{:g} s", target.*member);
}

template <auto member>
constexpr Value<TargetOf<member>> duration() {
  return plain<member>(read_by<member, &Reader::duration>, seconds_text<member>);
}

// --- Yes or no -------------------------------------------------------------------------------

template <auto member>
std::string boolean_text(const Value<TargetOf<member>>& /*self*/, const TargetOf<member>& target) {
  return target.*member ? "true" : "false";
}

template <auto member>
constexpr Value<TargetOf<member>> boolean() {
  return plain<member>(read_by<member, &Reader::boolean>, boolean_text<member>);
}

// --- One of the names in a name table --------------------------------------------------------

template <auto member, const auto& names>
void read_choice(const Value<TargetOf<member>>& /*self*/, const Reader& reader, const YAML::Node& node,
                 const std::string& key, TargetOf<member>& target) {
  target.*member = reader.choice(node, key, names);
}

template <auto member, const auto& names>
std::string choice_text(const Value<TargetOf<member>>& /*self*/, const TargetOf<member>& target) {
  return std::string(util::name_of(names, target.*member));
}

template <auto member, const auto& names>
void write_choice(const TargetOf<member>& target, const std::string& key, nlohmann::ordered_json& json) {
  json[key] = util::name_of(names, target.*member);
}

// One of `names`, written by name.
template <auto member, const auto& names>
constexpr Value<TargetOf<member>> choice() {
  auto value = plain<member>(read_choice<member, names>, choice_text<member, names>);
  value.write = write_choice<member, names>;
  return value;
}

// --- Text ------------------------------------------------------------------------------------

template <auto member>
std::string quoted_text(const Value<TargetOf<member>>& /*self*/, const TargetOf<member>& target) {
  return fmt::format("\"{}\"", target.*member);
}

// Any text, shown in quotes.
template <auto member>
constexpr Value<TargetOf<member>> text() {
  return plain<member>(read_by<member, &Reader::scalar>, quoted_text<member>);
}

}  // namespace perfduel::config::kinds
