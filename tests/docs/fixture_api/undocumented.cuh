// The fixture of host.api_docs_catches (tests/areas/api_docs.cmake): one public function of
// namespace cuprobe without a sentence, which scripts/api-docs.sh must name and fail on, beside
// a documented one and an undocumented one in a detail namespace, which it must not name.
#pragma once

namespace cuprobe {

/// A public function with its sentence.
inline int documented_on_purpose() { return 1; }

inline int undocumented_on_purpose() { return 2; }

namespace detail {
inline int detail_on_purpose() { return 3; }
}  // namespace detail

}  // namespace cuprobe
