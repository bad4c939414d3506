// host tier: gen/tma.cuh and experiments/tma.cuh without a GPU: the options refuse what cannot
// run with a sentence naming the field (before any CUDA call), the kernel choice is by enum and
// stage count, the shared-memory sizes and the expected checksum are right.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/cuprobe.cuh>

#include <cstdint>
#include <string>

#include "h200_like.cuh"

namespace ex = cuprobe::experiments;
namespace gen = cuprobe::gen;
using doctest::Contains;

namespace {
void nothing(const std::string&) {}

template <class F>
void refused(F&& f, const char* sentence) {
  CHECK_THROWS_WITH_AS(f(), Contains(sentence), cuprobe::error);
}
}  // namespace

TEST_CASE("tma_streams refuses options it cannot run, naming the field") {
  const auto dev = cuprobe_test::h200_like();
  const auto with = [&](auto change) {
    return [&dev, change] {
      ex::tma_stream_options o;
      change(o);
      (void)ex::tma_streams(dev, o, nothing);
    };
  };
  refused(with([](auto& o) { o.copy_bytes = {512}; }),
          "multiples of 1 KiB in 1 .. 32 KiB, got 512");
  refused(with([](auto& o) { o.copy_bytes = {65536}; }), "got 65536");
  refused(with([](auto& o) { o.copy_bytes = {1536}; }), "got 1536");
  refused(with([](auto& o) { o.stages = {3}; }), "stages are 1, 2, 4 or 8, got 3");
  refused(with([](auto& o) { o.ctas_per_sm = {0}; }), "CTAs per SM are 1 .. 32, got 0");
  refused(with([](auto& o) { o.consumer_warps = 0; }), "consumer_warps must be 1 .. 31");
  refused(with([](auto& o) { o.copies.clear(); }), "must not be empty");
  refused(with([](auto& o) { o.array_bytes = 1024; }), "array_bytes must be at least 32 KiB");
  refused(with([](auto& o) { o.run.graph = true; }), "the load check counts launches");
  refused(with([](auto& o) { o.run.batch = 4; }), "leave run.batch = 1");
  refused(with([](auto& o) { o.run.warmup = std::size_t(-1); }), "tma_streams");
}

TEST_CASE("tma_latency refuses options it cannot run, naming the field") {
  const auto dev = cuprobe_test::h200_like();
  const auto with = [&](auto change) {
    return [&dev, change] {
      ex::tma_latency_options o;
      change(o);
      (void)ex::tma_latency(dev, o);
    };
  };
  refused(with([](auto& o) { o.stride = 192; }), "a power of two of at least 128 bytes, got 192");
  refused(with([](auto& o) { o.stride = 64; }), "got 64");
  refused(with([](auto& o) { o.max_steps = 10; }), "max_steps must be 1024 .. 2^24");
  refused(with([](auto& o) { o.l2_bytes = 4096; }), "l2_bytes below 64 nodes");
  refused(with([](auto& o) { o.dram_bytes = 4096; }), "dram_bytes below 64 nodes");
  auto no_l2 = dev;
  no_l2.l2_bytes = 0;
  CHECK_THROWS_WITH_AS(ex::tma_latency(no_l2, ex::tma_latency_options{}),
                       Contains("reports no L2 size"), cuprobe::error);
}

TEST_CASE("stream kernels are chosen by copy kind and stage count") {
  // Function pointers compared as addresses (doctest cannot print function pointers).
  const auto addr = [](gen::tma_stream_fn f) { return reinterpret_cast<const void*>(f); };
  for (unsigned s : gen::tma_stage_counts)
    for (auto c : {gen::tma_copy::bulk, gen::tma_copy::tensor}) {
      CHECK(addr(gen::tma_load_stream_kernel_for(c, s)) != nullptr);
      CHECK(addr(gen::tma_store_stream_kernel_for(c, s)) != nullptr);
      CHECK(addr(gen::tma_load_stream_kernel_for(c, s)) !=
            addr(gen::tma_store_stream_kernel_for(c, s)));
    }
  CHECK(addr(gen::tma_load_stream_kernel_for(gen::tma_copy::bulk, 4)) ==
        addr(gen::tma_load_stream_kernel<gen::tma_copy::bulk, 4>));
  CHECK(addr(gen::tma_store_stream_kernel_for(gen::tma_copy::tensor, 8)) ==
        addr(gen::tma_store_stream_kernel<gen::tma_copy::tensor, 8>));
  CHECK(addr(gen::tma_load_stream_kernel_for(gen::tma_copy::bulk, 1)) !=
        addr(gen::tma_load_stream_kernel_for(gen::tma_copy::tensor, 1)));
  CHECK_THROWS_WITH_AS(gen::tma_load_stream_kernel_for(gen::tma_copy::bulk, 3),
                       Contains("stages must be 1, 2, 4 or 8, got 3"), cuprobe::error);
  CHECK(std::string(gen::to_string(gen::tma_copy::bulk)) == "bulk");
  CHECK(std::string(gen::to_string(gen::tma_copy::tensor)) == "tensor");
}

TEST_CASE("stream shapes: threads, shared memory and the expected checksum") {
  CHECK(gen::tma_stream_threads(4) == 160);
  CHECK(gen::tma_stream_smem_bytes(32768, 4) == 4 * 32768 + 1024);
  // 0 + 1 + ... + (n - 1) mod 2^32, against a plain loop.
  for (std::uint64_t n : {0ull, 1ull, 2ull, 3ull, 1000ull, 65537ull, (1ull << 20) + 3}) {
    std::uint32_t s = 0;
    for (std::uint64_t i = 0; i < n; ++i) s += static_cast<std::uint32_t>(i);
    CHECK(gen::tma_iota_sum(n) == s);
  }
  // A 3.75 GiB array (2^30 + 2^28 words): n (n - 1) / 2 exceeds 2^32 many times over.
  const std::uint64_t n = (1ull << 30) + (1ull << 28);
  const unsigned __int128 exact = (unsigned __int128)n * (n - 1) / 2;
  CHECK(gen::tma_iota_sum(n) == static_cast<std::uint32_t>(exact));
}
