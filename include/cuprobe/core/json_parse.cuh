// cuprobe/core/json_parse.cuh: reading JSON text into cuprobe::json (host only).
//
//   const cuprobe::json j = cuprobe::parse_json(R"({"metrics": {"dram.read.tbps": 4.6}})");
//   double r = j.at("metrics").at("dram.read.tbps").as_number();
//
// RFC 8259 JSON: objects, arrays, strings with every escape (\uXXXX as UTF-8, surrogate pairs
// joined), numbers, true, false, null; whitespace between tokens. Anything else, a nesting deeper
// than 256 levels, or text after the value, throws cuprobe::error naming the byte offset: a
// corrupt file is one sentence, never undefined behaviour. Integers that fit a long long are
// integers; every other number is a double.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

namespace detail {

class json_reader {
 public:
  explicit json_reader(const std::string& t) : t_(t) {}
  CUPROBE_DECL json document();

 private:
  [[noreturn]] CUPROBE_DECL void fail(const std::string& why) const;
  CUPROBE_DECL void space();
  CUPROBE_DECL bool take(char c);
  void expect(char c, const char* what) {
    if (!take(c)) fail(std::string("expected ") + what);
  }
  CUPROBE_DECL bool word(const char* w);
  CUPROBE_DECL json value(int depth);
  CUPROBE_DECL json object(int depth);
  CUPROBE_DECL json array(int depth);
  CUPROBE_DECL unsigned hex4();
  CUPROBE_DECL static void utf8(std::string& out, unsigned cp);
  CUPROBE_DECL std::string string();
  CUPROBE_DECL json number();

  const std::string& t_;
  std::size_t i_ = 0;
};

}  // namespace detail

/// The JSON value of `text`; throws cuprobe::error naming the byte offset of the first problem.
inline json parse_json(const std::string& text) { return detail::json_reader(text).document(); }

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/json_parse.cuh"
#endif
