#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/name_table.hpp"

// Field descriptors of the JSON report: each names one field and says how it is written and how
// it is read back, so that the writer (report_format/json_report.cpp) and the strict and lenient
// readers (report_format/saved_report.cpp) go through one table per section
// (report_format/report_fields.hpp), and a new field is one line of its table. nlohmann's own
// to_json/from_json pair does not fit: the lenient reader must never throw, and a metric's
// result is written from one type (MetricResult) and read into another (SavedMetric).
namespace perfduel::report_field {

using Json = nlohmann::ordered_json;

// What a reader does when a field is absent or of another type.
enum class Need {
  optional,  // both readers leave the value as it was
  required,  // the strict reader fails; the lenient one leaves the value as it was
  key,       // the strict reader fails; the lenient one skips the item (a run without its round)
};

// A name the strict reader does not know, e.g. a run's "side" "left".
class UnknownName : public std::runtime_error {
 public:
  // `field` the field's name, `value` the name read, `known` the names it may be (comma-separated).
  UnknownName(const std::string& field, const std::string& value, const std::string& known)
      : std::runtime_error("unknown \"" + field + "\" \"" + value + "\" (one of " + known + ")") {}
};

// One field of the section written from a `Source` and read into a `Target`.
template <typename Source, typename Target = Source>
struct Field {
  using Write = std::function<std::optional<Json>(const Source&)>;
  using Read = std::function<bool(const Json&, Target&)>;
  using ReadStrict = std::function<void(const Json&, Target&)>;

  // `write` returns the field's value, or nullopt to leave the field out; `read` (none: the
  // field is written, not read back) reads the value, null when the field is absent, and may
  // return void (it always reads) or bool (whether the value was of the field's type).
  template <typename Writer, typename Reader = std::nullptr_t>
  Field(const char* field_name, Writer writer, Reader reader = nullptr, ReadStrict strict_reader = {},
        Need field_need = Need::optional)
      : name(field_name), write(std::move(writer)), read_strict(std::move(strict_reader)), need(field_need) {
    if constexpr (std::is_invocable_r_v<bool, Reader, const Json&, Target&>) {
      read = std::move(reader);
    } else if constexpr (!std::is_null_pointer_v<Reader>) {
      read = [reader = std::move(reader)](const Json& value, Target& target) {
        reader(value, target);
        return true;
      };
    }
  }

  const char* name;
  Write write;
  // Leniently: a value of another type leaves the target as it was (and returns false).
  Read read;
  // Strictly (a run): throws nlohmann's exception on a value of another type, UnknownName on a
  // name it does not know. Only the tables that the strict reader reads have one.
  ReadStrict read_strict;
  Need need;
};

template <typename Source, typename Target = Source>
using FieldTable = std::vector<Field<Source, Target>>;

// The table of a section read and written whole as one type (`Table<Environment>::fields()`);
// report_format/report_fields.hpp declares one for each such type.
template <typename T>
struct Table;

template <typename T>
concept HasTable = requires {
  Table<T>::fields();
};

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

// The member `key` of `object`, or null when `object` is not an object or lacks it.
inline const Json& member_of(const Json& object, const char* key) {
  static const Json k_null;
  if (!object.is_object()) {
    return k_null;
  }
  const auto it = object.find(key);
  return it == object.end() ? k_null : *it;
}

template <typename Source, typename Target>
Json write_fields(const FieldTable<Source, Target>& fields, const Source& source);

// `value` as the report writes it.
template <typename T>
Json write_value(const T& value) {
  if constexpr (HasTable<T>) {
    return write_fields(Table<T>::fields(), value);
  } else if constexpr (IsOptional<T>::value) {
    return value ? write_value(*value) : Json(nullptr);
  } else if constexpr (IsVector<T>::value) {
    auto items = Json::array();
    for (const auto& item : value) {
      items.push_back(write_value(item));
    }
    return items;
  } else if constexpr (std::is_same_v<T, std::filesystem::path>) {
    return value.string();
  } else {
    return Json(value);
  }
}

template <typename Source, typename Target>
bool read_fields(const FieldTable<Source, Target>& fields, const Json& object, Target& target);

// Reads `value` into `target` leniently; false, `target` as it was, when it is of another type.
template <typename T>
bool read_value(const Json& value, T& target);

// The items of the array `value` appended to `target`, each read as read_value reads it; items of
// another type: a string's are dumped, an int's left out, any other's its default.
template <typename Item>
bool read_items(const Json& value, std::vector<Item>& target) {
  if (!value.is_array()) {
    return false;
  }
  for (const auto& item : value) {
    if constexpr (std::is_same_v<Item, std::string>) {
      target.push_back(item.is_string() ? item.template get<std::string>() : item.dump());
    } else if constexpr (std::is_same_v<Item, int>) {
      if (item.is_number_integer()) {
        target.push_back(item.template get<int>());
      }
    } else {
      Item read{};
      read_value(item, read);
      target.push_back(std::move(read));
    }
  }
  return true;
}

// A string (or path), bool, integer or floating-point `value` into `target`.
template <typename T>
bool read_scalar(const Json& value, T& target) {
  bool fits = false;
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::filesystem::path>) {
    fits = value.is_string();
  } else if constexpr (std::is_same_v<T, bool>) {
    fits = value.is_boolean();
  } else if constexpr (std::is_integral_v<T>) {
    fits = value.is_number_integer();
  } else {
    static_assert(std::is_floating_point_v<T>, "a field of a type the report does not read");
    fits = value.is_number();
  }
  if (fits) {
    using Read = std::conditional_t<std::is_same_v<T, std::filesystem::path>, std::string, T>;
    target = value.template get<Read>();
  }
  return fits;
}

template <typename T>
bool read_value(const Json& value, T& target) {
  if constexpr (HasTable<T>) {
    read_fields(Table<T>::fields(), value, target);
    return true;
  } else if constexpr (IsOptional<T>::value) {
    using Item = typename T::value_type;
    if constexpr (HasTable<Item>) {
      if (!value.is_object()) {
        return false;
      }
    }
    Item item{};
    if (!read_value(value, item)) {
      return false;
    }
    target = std::move(item);
    return true;
  } else if constexpr (IsVector<T>::value) {
    return read_items(value, target);
  } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
    for (auto it = value.begin(); value.is_object() && it != value.end(); ++it) {
      target[it.key()] = it->is_string() ? it->template get<std::string>() : it->dump();
    }
    return value.is_object();
  } else {
    return read_scalar(value, target);
  }
}

// Each field `source` has a value for, in the table's order.
template <typename Source, typename Target>
Json write_fields(const FieldTable<Source, Target>& fields, const Source& source) {
  Json object = Json::object();
  for (const auto& field : fields) {
    if (auto value = field.write(source)) {
      object[field.name] = std::move(*value);
    }
  }
  return object;
}

// Reads each field of `object` (none when it is not an object) that the table reads back into
// `target`, leniently; false when a key field was absent or of another type.
template <typename Source, typename Target>
bool read_fields(const FieldTable<Source, Target>& fields, const Json& object, Target& target) {
  bool keys_read = true;
  for (const auto& field : fields) {
    if (field.read && !field.read(member_of(object, field.name), target) && field.need == Need::key) {
      keys_read = false;
    }
  }
  return keys_read;
}

// Reads each field of `object` strictly, in the table's order: throws nlohmann's exception on a
// required or key field absent or of another type, UnknownName on a name not known.
template <typename Source, typename Target>
void read_fields_strict(const FieldTable<Source, Target>& fields, const Json& object, Target& target) {
  for (const auto& field : fields) {
    if (!field.read_strict) {
      continue;
    }
    if (field.need != Need::optional) {
      field.read_strict(object.at(field.name), target);
    } else if (const auto it = object.find(field.name); it != object.end()) {
      field.read_strict(*it, target);
    }
  }
}

// The strict reader of a member: only a run's are read strictly, numbers, flags and strings.
template <typename T, typename Value, typename Projection>
typename Field<T>::ReadStrict strict_member_reader([[maybe_unused]] Projection projection) {
  if constexpr (std::is_arithmetic_v<Value> || std::is_same_v<Value, std::string>) {
    return
        [projection](const Json& value, T& target) { std::invoke(projection, target) = value.get<Value>(); };
  } else {
    return {};
  }
}

// A field of the member `projection` of a `T` (a member pointer, or a lambda returning a
// reference to a member of a member), written and read as its type.
template <typename T, typename Projection>
Field<T> member(const char* name, Projection projection, Need need = Need::optional) {
  using Value = std::remove_cvref_t<std::invoke_result_t<Projection, T&>>;
  return Field<T>(
      name, [projection](const T& source) { return write_value(std::invoke(projection, source)); },
      [projection](const Json& value, T& target) {
        return read_value(value, std::invoke(projection, target));
      },
      strict_member_reader<T, Value>(projection), need);
}

// A field of the member `pointer` of a `T`, written and read as its type.
template <typename T, typename Value>
Field<T> member(const char* name, Value T::*pointer, Need need = Need::optional) {
  return member<T, Value T::*>(name, pointer, need);
}

// A field of the member `inner` of the member `outer` of a `T` (a run's round in a NamedRun).
template <typename T, typename Outer, typename Value>
Field<T> member(const char* name, Outer T::*outer, Value Outer::*inner, Need need = Need::optional) {
  return member<T>(
      name, [ outer, inner ](auto& source) -> auto& { return (source.*outer).*inner; }, need);
}

// A field of the enum member `projection` of a `T`, written by its name in `names`; a name it
// does not know reads as `fallback` when there is one (else it leaves the value as it was).
template <typename T, typename Projection, typename Enum, std::size_t N>
Field<T> named(const char* name, Projection projection, const util::NameTable<Enum, N>& names,
               std::type_identity_t<std::optional<Enum>> fallback = std::nullopt,
               Need need = Need::optional) {
  return Field<T>(
      name,
      [projection, &names](const T& source) {
        return Json(std::string(util::name_of(names, std::invoke(projection, source))));
      },
      [projection, &names, fallback](const Json& value, T& target) {
        auto known = util::value_of(names, value.is_string() ? value.get<std::string>() : std::string());
        if (!known) {
          known = fallback;
        }
        if (known) {
          std::invoke(projection, target) = *known;
        }
        return known.has_value();
      },
      [projection, &names, name](const Json& value, T& target) {
        const auto text = value.get<std::string>();
        const auto known = util::value_of(names, text);
        if (!known) {
          throw UnknownName(name, text, util::names_of(names));
        }
        std::invoke(projection, target) = *known;
      },
      need);
}

// A field of the enum member `pointer` of a `T`, as named() above.
template <typename T, typename Enum, std::size_t N>
Field<T> named(const char* name, Enum T::*pointer, const util::NameTable<Enum, N>& names,
               std::type_identity_t<std::optional<Enum>> fallback = std::nullopt,
               Need need = Need::optional) {
  return named<T, Enum T::*, Enum, N>(name, pointer, names, fallback, need);
}

// A field of the enum member `inner` of the member `outer` of a `T`, as named() above.
template <typename T, typename Outer, typename Enum, std::size_t N>
Field<T> named(const char* name, Outer T::*outer, Enum Outer::*inner, const util::NameTable<Enum, N>& names,
               std::type_identity_t<std::optional<Enum>> fallback = std::nullopt,
               Need need = Need::optional) {
  return named<T>(
      name, [ outer, inner ](auto& source) -> auto& { return (source.*outer).*inner; }, names, fallback,
      need);
}

// A reader of the member `target_member` of a `Target`, as its type.
template <typename Target, typename Value>
auto read_into(Value Target::*target_member) {
  return
      [target_member](const Json& value, Target& target) { return read_value(value, target.*target_member); };
}

// `field`, left out of what is written unless `written(source)`: an optional field with
// nothing to say.
template <typename Source, typename Target, typename Predicate>
Field<Source, Target> omitted_unless(Predicate written, Field<Source, Target> field) {
  field.write = [written, write = std::move(field.write)](const Source& source) -> std::optional<Json> {
    if (!written(source)) {
      return std::nullopt;
    }
    return write(source);
  };
  return field;
}

}  // namespace perfduel::report_field
