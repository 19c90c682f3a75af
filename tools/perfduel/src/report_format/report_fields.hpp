#pragma once

// The field names of the JSON report (`perfduel compare --json`), the one table that its writer
// (report_format/json_report.cpp) and its reader (report_format/saved_report.cpp) share, so that a renamed
// field cannot drift between them. No other file reads a report by these names: they read a
// SavedReport (tests/lint/report_fields.sh holds the tree to that, taking the names from the
// lines below, one `k_… = "…";` a line).
namespace perfduel::report_field {

// The report's own sections and values.
inline constexpr const char* k_perfduel_version = "perfduel_version";
inline constexpr const char* k_verdict = "verdict";
inline constexpr const char* k_exit_code = "exit_code";
inline constexpr const char* k_error = "error";
inline constexpr const char* k_error_stderr = "error_stderr";
inline constexpr const char* k_error_stdout = "error_stdout";
inline constexpr const char* k_end = "end";
inline constexpr const char* k_retried = "retried";
inline constexpr const char* k_left_behind = "left_behind";
inline constexpr const char* k_started = "started";
inline constexpr const char* k_elapsed_seconds = "elapsed_seconds";
inline constexpr const char* k_measured_rounds = "measured_rounds";
inline constexpr const char* k_seed = "seed";
inline constexpr const char* k_reanalysis = "reanalysis";
inline constexpr const char* k_of = "of";
inline constexpr const char* k_settings_from = "settings_from";
inline constexpr const char* k_changed = "changed";
inline constexpr const char* k_ignored = "ignored";
inline constexpr const char* k_baseline = "baseline";
inline constexpr const char* k_candidate = "candidate";
inline constexpr const char* k_command = "command";
inline constexpr const char* k_programs = "programs";
inline constexpr const char* k_compared = "compared";
inline constexpr const char* k_reason = "reason";
inline constexpr const char* k_sha256 = "sha256";
inline constexpr const char* k_files = "files";
inline constexpr const char* k_role = "role";
inline constexpr const char* k_path = "path";
inline constexpr const char* k_metrics = "metrics";
inline constexpr const char* k_notes = "notes";
inline constexpr const char* k_duel_notes = "duel_notes";
inline constexpr const char* k_benchmarks = "benchmarks";
inline constexpr const char* k_new = "new";
inline constexpr const char* k_removed = "removed";
inline constexpr const char* k_unmeasurable = "unmeasurable";
inline constexpr const char* k_uncountable = "uncountable";
inline constexpr const char* k_config = "config";
inline constexpr const char* k_environment = "environment";
inline constexpr const char* k_host = "host";
inline constexpr const char* k_cpu_model = "cpu_model";
inline constexpr const char* k_cpu_count = "cpu_count";
inline constexpr const char* k_kernel = "kernel";
inline constexpr const char* k_kernel_release = "kernel_release";
inline constexpr const char* k_machine = "machine";
inline constexpr const char* k_machine_id = "machine_id";
inline constexpr const char* k_load = "load";
inline constexpr const char* k_governor = "governor";
inline constexpr const char* k_driver_peak_rss_bytes = "driver_peak_rss_bytes";
inline constexpr const char* k_pinning = "pinning";
inline constexpr const char* k_cpus = "cpus";
inline constexpr const char* k_source = "source";
inline constexpr const char* k_warmup_parallelism = "warmup_parallelism";
inline constexpr const char* k_runs = "runs";
inline constexpr const char* k_round = "round";
inline constexpr const char* k_side = "side";
inline constexpr const char* k_warmup = "warmup";
inline constexpr const char* k_cpu = "cpu";
inline constexpr const char* k_alone = "alone";
inline constexpr const char* k_values = "values";

// A metric's result ("metrics" items).
inline constexpr const char* k_name = "name";
inline constexpr const char* k_unit = "unit";
inline constexpr const char* k_direction = "direction";
inline constexpr const char* k_gated = "gated";
inline constexpr const char* k_baseline_median = "baseline_median";
inline constexpr const char* k_candidate_median = "candidate_median";
inline constexpr const char* k_change = "change";
inline constexpr const char* k_ci = "ci";
inline constexpr const char* k_confidence = "confidence";
inline constexpr const char* k_inside_band_uncorrected = "inside_band_uncorrected";
inline constexpr const char* k_threshold = "threshold";
inline constexpr const char* k_tolerance = "tolerance";
inline constexpr const char* k_likely_regression = "likely_regression";
inline constexpr const char* k_settled_by = "settled_by";
// The side whose every run read 0 while the other's never did (MetricResult::zero_side).
inline constexpr const char* k_read_zero = "read_zero";
inline constexpr const char* k_stopping_width = "stopping_width";
inline constexpr const char* k_sequence = "sequence";
inline constexpr const char* k_signs = "signs";
inline constexpr const char* k_beyond = "beyond";
inline constexpr const char* k_rounds = "rounds";
inline constexpr const char* k_by_more_than = "by_more_than";
inline constexpr const char* k_shown_instead_of_interval = "shown_instead_of_interval";
inline constexpr const char* k_at_driver_floor = "at_driver_floor";
inline constexpr const char* k_cpu_effect = "cpu_effect";
inline constexpr const char* k_estimator = "estimator";
inline constexpr const char* k_batch_size = "batch_size";
inline constexpr const char* k_batches = "batches";
inline constexpr const char* k_lag1 = "lag1";
inline constexpr const char* k_p_value = "p_value";
inline constexpr const char* k_note = "note";

// A metric's change attributed to functions ("explanations" items).
inline constexpr const char* k_explanations = "explanations";
inline constexpr const char* k_explain_seconds = "explain_seconds";
inline constexpr const char* k_metric = "metric";
inline constexpr const char* k_benchmark = "benchmark";
inline constexpr const char* k_event = "event";
inline constexpr const char* k_basis = "basis";
inline constexpr const char* k_metric_change = "metric_change";
inline constexpr const char* k_baseline_total = "baseline_total";
inline constexpr const char* k_candidate_total = "candidate_total";
inline constexpr const char* k_reading = "reading";
inline constexpr const char* k_functions = "functions";
inline constexpr const char* k_source_file = "source_file";
inline constexpr const char* k_source_line = "source_line";
inline constexpr const char* k_baseline_inclusive = "baseline_inclusive";
inline constexpr const char* k_candidate_inclusive = "candidate_inclusive";
inline constexpr const char* k_moved = "moved";
inline constexpr const char* k_share = "share";
inline constexpr const char* k_moves = "moves";
inline constexpr const char* k_from = "from";
inline constexpr const char* k_into = "into";
inline constexpr const char* k_amount = "amount";
inline constexpr const char* k_tree = "tree";
inline constexpr const char* k_culprit = "culprit";
inline constexpr const char* k_instructions_change = "instructions_change";
inline constexpr const char* k_cycles_change = "cycles_change";

}  // namespace perfduel::report_field
