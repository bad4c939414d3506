// cuprobe/model/impl/access.cuh: the definitions of cuprobe/model/access.cuh's larger host
// functions. Not a header of its own: access.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::model {

CUPROBE_DECL const char* to_string(access_shape s) {
  return s == access_shape::strided    ? "strided"
         : s == access_shape::permuted ? "permuted"
                                       : "gather";
}

CUPROBE_DECL void access_pattern::validate() const {
  require(width == 1 || width == 2 || width == 4 || width == 8 || width == 16,
          "access_pattern: width is " + std::to_string(width) + "; it must be 1, 2, 4, 8 or 16");
  require(offset % width == 0, "access_pattern: offset " + std::to_string(offset) +
                                   " is not a multiple of the width " + std::to_string(width) +
                                   " (a lane's access must be naturally aligned)");
  require(stride >= 1 && stride <= 32,
          "access_pattern: stride is " + std::to_string(stride) + "; it must be 1 .. 32");
  require(lines >= 1 && lines <= warp_lanes,
          "access_pattern: lines is " + std::to_string(lines) + "; it must be 1 .. 32");
  const unsigned per_line = (warp_lanes + lines - 1) / lines;
  require(shape != access_shape::gather || per_line * width <= line_bytes,
          "access_pattern: a gather over " + std::to_string(lines) + " lines puts " +
              std::to_string(per_line) + " lanes of " + std::to_string(width) +
              " bytes in each, more than a 128-byte line");
}

CUPROBE_DECL std::string label(const access_pattern& p) {
  std::string s = "w" + std::to_string(p.width) + " o" + std::to_string(p.offset) + " ";
  if (p.shape == access_shape::permuted) return s + "perm" + std::to_string(p.seed);
  if (p.shape == access_shape::gather) return s + "gather" + std::to_string(p.lines);
  return s + "s" + std::to_string(p.stride);
}

CUPROBE_DECL sector_count warp_sectors(const access_pattern& p) {
  p.validate();
  std::vector<std::uint64_t> bytes;  // every byte a lane touches (lanes never overlap)
  for (unsigned l = 0; l < warp_lanes; ++l)
    for (std::uint64_t b = p.lane_offset(l); b < p.lane_offset(l) + p.width; ++b)
      bytes.push_back(b);
  std::sort(bytes.begin(), bytes.end());
  // Distinct units of `size` bytes among the touched bytes (sorted, so the units come in order).
  const auto units = [&](std::uint64_t size) {
    unsigned n = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i)
      n += i == 0 || bytes[i] / size != bytes[i - 1] / size;
    return n;
  };
  sector_count c;
  c.sectors = units(sector_bytes);
  c.lines = units(line_bytes);
  c.useful_bytes = warp_lanes * p.width;
  c.pairs = units(dram_pair_bytes);
  for (std::size_t i = 0, run = 0; i < bytes.size(); ++i) {  // sectors with fewer bytes touched
    run = i > 0 && bytes[i] / sector_bytes == bytes[i - 1] / sector_bytes ? run + 1 : 1;
    const bool last =
        i + 1 == bytes.size() || bytes[i + 1] / sector_bytes != bytes[i] / sector_bytes;
    c.partial_sectors += last && run < sector_bytes;
  }
  return c;
}

}  // namespace cuprobe::model
