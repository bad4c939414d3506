// cuprobe/multi/peer_transfer.cuh: bytes moved between two GPUs by the copy engines or by SM
// loads and stores, in one direction or both at once, timed by the runner and checked.
//
//   cuprobe::peer_access both(0, 1);
//   cuprobe::peer_buffers b(0, 1, 256u << 20);
//   cuprobe::peer_transfer_options o;
//   o.method = cuprobe::peer_method::sm_read;           // device 1's SMs load device 0's memory
//   auto r = cuprobe::measure_peer<cuprobe::ptx::cache::cg>(b, 0, o);   // data flows 0 -> 1
//   std::printf("%.1f GB/s, %s\n", r.m.gb_per_s(), r.check.message.c_str());
//
// Methods (data flows from side `from` to the other side, `to`):
//   copy_engine  cudaMemcpyPeerAsync(to's output, from's input) on a stream of `from` (a push,
//                as nvbandwidth's "write" copy-engine tests)
//   sm_read      `to`'s SMs load `from`'s input with ld.global.<LdOp> (peer_read_kernel), 16 B a
//                lane, and keep per-thread sums (the read pattern's sinks, checked exactly)
//   sm_write     `from`'s SMs store into `to`'s output with st.global.<StOp> (peer_write_kernel)
//   sm_copy      `to`'s SMs load `from`'s input and store into their own output
//                (peer_copy_kernel: a pull copy)
// The SM kernels are gen::stream_body with 16-byte elements on a persistent grid, named here for
// their SASS tests. Bidirectional: the same method the other way at once, on a stream of the
// other device forked from the runner's and joined back. The work: N bytes per direction, placed
// beside `nominal_bytes_per_s` (one direction of the link, e.g. measure/nvlink.cuh) with the
// above_bus_rate flag and `fraction_of_link`; outputs poisoned before and checked after.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/gen/stream_check.cuh"
#include "cuprobe/gen/stream_kernels.cuh"
#include "cuprobe/gen/stream_table.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/measure/flags.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/multi/peer.cuh"
#include "cuprobe/ptx/cache.cuh"

namespace cuprobe {

/// `to`'s SMs read `from`'s memory: the read pattern, 16 B a lane, one pass per launch.
template <class LdOp = ptx::cache::cg>
__global__ void peer_read_kernel(gen::stream_args a) {
  gen::stream_body<gen::stream_pattern::read, uint4, LdOp, gen::paired_store_t<LdOp>,
                   loop_mode::launches>(a);
}
/// `from`'s SMs write `to`'s memory: the write pattern, 16 B a lane, one pass per launch.
template <class StOp = ptx::cache::cg>
__global__ void peer_write_kernel(gen::stream_args a) {
  gen::stream_body<gen::stream_pattern::write, uint4, ptx::cache::none, StOp, loop_mode::launches>(
      a);
}
/// `to`'s SMs copy `from`'s memory into their own: the copy pattern, 16 B a lane.
template <class LdOp = ptx::cache::cg>
__global__ void peer_copy_kernel(gen::stream_args a) {
  gen::stream_body<gen::stream_pattern::copy, uint4, LdOp, gen::paired_store_t<LdOp>,
                   loop_mode::launches>(a);
}

/// Who moves the bytes (see the file comment).
enum class peer_method { copy_engine, sm_read, sm_write, sm_copy };

/// "copy_engine", "sm_read", "sm_write" or "sm_copy".
CUPROBE_DECL const char* to_string(peer_method m);

/// What measure_peer moves, and how it is timed.
struct peer_transfer_options {
  peer_method method = peer_method::copy_engine;  ///< who moves the bytes
  bool bidirectional = false;                     ///< both directions at once
  std::size_t bytes = 0;                          ///< per direction; 0: the buffers' size
  int blocks_per_sm = 4;                          ///< the SM kernels' grid: blocks per SM ...
  int threads = 512;                              ///< ... of this many threads (persistent)
  run_options run = run_options::fixed(2, 10);    ///< launches mode, one transfer a launch
  std::optional<double> nominal_bytes_per_s;      ///< one direction of the link, when known
  std::string link = "the link";                  ///< its name, for the flag's sentence

  /// Throws cuprobe::error naming the field when the options cannot be run on `b`.
  CUPROBE_DECL void validate(std::size_t buffer_bytes) const;
};

/// One measured transfer: the measurement, the check of its last transfer, and the rate per
/// direction as a fraction of the link's nominal one-direction rate.
struct peer_transfer_result {
  measurement m;                           ///< timed by measure()
  gen::stream_check check;                 ///< the destination(s) after the last transfer
  std::optional<double> fraction_of_link;  ///< bytes/s per direction / nominal_bytes_per_s
};

namespace detail {
/// The device whose stream issues the transfer `from` -> other side with method `m`.
CUPROBE_DECL int peer_driver(const peer_buffers& b, peer_method m, int from);
}  // namespace detail

/// Moves `o.bytes` from side `from` of `b` to the other side (and back at once when
/// bidirectional) with `o.method`, timed through measure() on the issuing device; see the file
/// comment. LdOp: the SM loads' cache operator; StOp: sm_write's stores'.
template <class LdOp = ptx::cache::cg, class StOp = ptx::cache::cg>
peer_transfer_result measure_peer(peer_buffers& b, int from, const peer_transfer_options& o) {
  o.validate(b.bytes());
  from &= 1;
  const std::size_t n = o.bytes ? o.bytes : b.bytes();
  const peer_method m = o.method;
  const unsigned dirs = o.bidirectional ? 2u : 1u;
  int sides[2] = {from, 1 - from};
  device_buffer<std::uint32_t> sinks[2];
  gen::stream_args args[2];
  launch_shape shape[2];
  for (unsigned d = 0; d < dirs; ++d) {  // direction d: sides[d] -> the other side
    const int src = sides[d], dst = 1 - src;
    const int driver = detail::peer_driver(b, m, src);
    scoped_device on(driver);
    shape[d] = gen::stream_shape(o.blocks_per_sm, o.threads);
    args[d].elements = n / 16;
    args[d].in[0] = b.input(src);
    args[d].out = b.output(dst);
    if (m == peer_method::sm_read) {
      sinks[d] = device_buffer<std::uint32_t>(shape[d].threads());
      sinks[d].poison();
      args[d].sink = sinks[d].data();
    } else {
      b.poison_output(dst);
    }
  }
  const auto issue = [&](unsigned d, cudaStream_t s) {
    const int src = sides[d], dst = 1 - src;
    if (m == peer_method::copy_engine) {
      CUPROBE_CHECK(
          cudaMemcpyPeerAsync(b.output(dst), b.device(dst), b.input(src), b.device(src), n, s));
      return;
    }
    const unsigned grid = shape[d].grid.x, block = shape[d].block.x;
    if (m == peer_method::sm_read)
      peer_read_kernel<LdOp><<<grid, block, 0, s>>>(args[d]);
    else if (m == peer_method::sm_write)
      peer_write_kernel<StOp><<<grid, block, 0, s>>>(args[d]);
    else
      peer_copy_kernel<LdOp><<<grid, block, 0, s>>>(args[d]);
  };
  const int driver = detail::peer_driver(b, m, sides[0]);
  const int other = detail::peer_driver(b, m, sides[1]);
  scoped_device on(driver);
  std::optional<cuda_stream> second;
  std::optional<cuda_event> fork, join;
  if (o.bidirectional) {
    fork.emplace(cudaEventDisableTiming);
    scoped_device there(other);
    second.emplace();
    join.emplace(cudaEventDisableTiming);
  }
  const std::string acc =
      std::string(o.bidirectional ? "2N: N bytes each way at once" : "N bytes one way") +
      ", each crossing the link once (" + to_string(m) + ")";
  peer_transfer_result r;
  r.m = measure(
      std::string("peer.") + to_string(m) + (o.bidirectional ? ".bidir" : ""),
      [&](cudaStream_t s) {
        if (o.bidirectional) {
          fork->record(s);
          CUPROBE_CHECK(cudaStreamWaitEvent(*second, fork->get(), 0));
          scoped_device there(other);
          issue(1, *second);
          CUPROBE_CHECK_LAUNCH("cuprobe::measure_peer (the reverse direction)");
          join->record(*second);
        }
        issue(0, s);
        CUPROBE_CHECK_LAUNCH("cuprobe::measure_peer");
        if (o.bidirectional) CUPROBE_CHECK(cudaStreamWaitEvent(s, join->get(), 0));
      },
      work::bytes_moved(double(n) * dirs, 0, acc), o.run);
  for (unsigned d = 0; d < dirs; ++d) {
    const int src = sides[d], dst = 1 - src;
    gen::stream_check c;
    if (m == peer_method::sm_read) {
      scoped_device there(detail::peer_driver(b, m, src));
      const std::uint32_t expected = gen::detail::device_sum(nullptr, n / 4, b.seed_of(src));
      const std::uint32_t found = gen::detail::device_sum(sinks[d].data(), sinks[d].size(), 0);
      c = gen::detail::make_sum_check(expected, found, sinks[d].size());
    } else {
      c = b.check_output(
          dst, m == peer_method::sm_write ? gen::stream_pattern::write : gen::stream_pattern::copy,
          n);
    }
    if (d == 0 || !c.ok) r.check = c;
  }
  if (auto f =
          bus_rate_flag(r.m.rate.bytes_per_s,
                        o.nominal_bytes_per_s ? std::optional<double>(*o.nominal_bytes_per_s * dirs)
                                              : std::nullopt,
                        o.link))
    r.m.flags.push_back(*f);
  if (o.nominal_bytes_per_s && r.m.rate.bytes_per_s)
    r.fraction_of_link = *r.m.rate.bytes_per_s / dirs / *o.nominal_bytes_per_s;
  r.m.with_param("method", to_string(m))
      .with_param("from_device", b.device(sides[0]))
      .with_param("to_device", b.device(sides[1]))
      .with_param("bidirectional", o.bidirectional)
      .with_param("bytes", double(n))
      .with_param("load", m == peer_method::copy_engine || m == peer_method::sm_write
                              ? std::string("-")
                              : ptx::load_instruction<LdOp>)
      .with_param("store", m == peer_method::sm_write ? std::string(ptx::store_instruction<StOp>)
                                                      : std::string("-"))
      .with_param("link", o.link)
      .with_param("link_nominal_bytes_per_s", o.nominal_bytes_per_s)
      .with_param("fraction_of_link", r.fraction_of_link)
      .with_param("check", r.check.message)
      .with_param("valid", r.check.ok);
  return r;
}

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/multi/impl/peer_transfer.cuh"
#endif
