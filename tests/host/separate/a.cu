// host.separate_compilation, first translation unit: the umbrella's declarations only
// (CUPROBE_SEPARATE_COMPILATION), calling host functions that
// cuprobe_separate_compilation()'s library defines (tests/areas/core.cmake).
#include <cuprobe/cuprobe.cuh>

#include <cstdio>
#include <string>

std::string second_unit();  // b.cu

int main() {
  int failures = 0;
  const auto check = [&](bool ok, const char* what) {
    if (!ok) {
      std::printf("FAILED: %s\n", what);
      ++failures;
    }
  };
  cuprobe::json j = cuprobe::json::object();
  j["x"] = 1.5;
  j["s"] = "a\"b";
  check(j.dump() == "{\"x\":1.5,\"s\":\"a\\\"b\"}", "json::dump in the first unit");
  check(cuprobe::parse_json(j.dump()).at("x").as_number() == 1.5, "parse_json round trip");
  check(second_unit() == "[1,2]", "json::dump in the second unit");
  const auto s = cuprobe::summarize({3.0, 1.0, 2.0});
  check(s.median == 2.0 && s.min == 1.0 && s.max == 3.0, "summarize");
  try {
    cuprobe::require(false, "the sentence");
    check(false, "require throws");
  } catch (const cuprobe::error& e) {
    check(std::string(e.what()) == "cuprobe: the sentence", "require's message");
  }
  std::printf("separate compilation: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
