#pragma once

#include "config/config.hpp"
#include "util/name_table.hpp"

namespace perfduel::config {

// One name table per enum, for reading the YAML and writing the effective configuration
// (k_order_names is public: --order takes the same names).
inline constexpr util::NameTable<CountedEvent, 7> k_counted_events{
    {{CountedEvent::instructions, "instructions"},
     {CountedEvent::cycles, "cycles"},
     {CountedEvent::branch_misses, "branch-misses"},
     {CountedEvent::cache_misses, "cache-misses"},
     {CountedEvent::allocations, "allocations"},
     {CountedEvent::allocated_bytes, "allocated_bytes"},
     {CountedEvent::peak_heap, "peak"}}};
// What the allocation counter counts natively over a whole run (`heap:`).
inline constexpr util::NameTable<CountedEvent, 3> k_heap_events{
    {{CountedEvent::allocations, "allocations"},
     {CountedEvent::allocated_bytes, "allocated_bytes"},
     {CountedEvent::peak_heap, "peak"}}};
// What the CPU's own counters count (`counter:`).
inline constexpr util::NameTable<CountedEvent, 4> k_hardware_events{
    {{CountedEvent::instructions, "instructions"},
     {CountedEvent::cycles, "cycles"},
     {CountedEvent::branch_misses, "branch-misses"},
     {CountedEvent::cache_misses, "cache-misses"}}};
// Valgrind's cachegrind counts instructions and, with its cache simulation, estimates cycles;
// per benchmark, callgrind also counts the allocations of an interposed allocator.
inline constexpr util::NameTable<CountedEvent, 4> k_valgrind_events{
    {{CountedEvent::instructions, "instructions"},
     {CountedEvent::cycles, "cycles"},
     {CountedEvent::allocations, "allocations"},
     {CountedEvent::allocated_bytes, "allocated_bytes"}}};
inline constexpr util::NameTable<MissingBenchmark, 2> k_missing_names{
    {{MissingBenchmark::report, "report"}, {MissingBenchmark::error, "error"}}};
inline constexpr util::NameTable<Repetitions, 2> k_repetitions_names{
    {{Repetitions::median, "median"}, {Repetitions::best, "best"}}};
inline constexpr util::NameTable<Stopping, 3> k_stopping_names{
    {{Stopping::hybrid, "hybrid"}, {Stopping::width, "width"}, {Stopping::anytime, "anytime"}}};
inline constexpr util::NameTable<Correction, 2> k_correction_names{
    {{Correction::bonferroni, "bonferroni"}, {Correction::holm, "holm"}}};
inline constexpr util::NameTable<Zeros, 2> k_zeros_names{
    {{Zeros::allowed, "allowed"}, {Zeros::error, "error"}}};
inline constexpr util::NameTable<InconclusivePolicy, 3> k_inconclusive_names{
    {{InconclusivePolicy::skip, "skip"},
     {InconclusivePolicy::fail, "fail"},
     {InconclusivePolicy::pass, "pass"}}};
inline constexpr util::NameTable<Explain, 3> k_explain_names{
    {{Explain::off, "off"}, {Explain::failures, "failures"}, {Explain::always, "always"}}};
inline constexpr util::NameTable<IdenticalPrograms, 2> k_identical_programs_names{
    {{IdenticalPrograms::skip, "skip"}, {IdenticalPrograms::measure, "measure"}}};

}  // namespace perfduel::config
