// device_report: cuprobe's main job, a one-page report of the GPU it runs on.
// For now: what the GPU is (device_info). Later issues add timers, compute and memory.
#include <cuprobe/cuprobe.cuh>

#include <cstdio>

int main() {
  try {
    const auto d = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    std::printf("cuprobe %s device report\n\n", cuprobe::version_string);
    std::printf("GPU                 %s (%s)\n", d.name.c_str(), d.uuid.c_str());
    std::printf("PCI bus             %s\n", d.pci_bus_id.c_str());
    std::printf("compute capability  %s\n", d.compute_capability().c_str());
    std::printf("SMs                 %d\n", d.sm_count);
    std::printf("SM clock (max)      %.0f MHz\n", d.sm_clock_khz / 1e3);
    std::printf("L2                  %.1f MiB\n", d.l2_bytes / 1048576.0);
    std::printf("shared memory       %zu KiB/SM, %zu KiB/block opt-in\n", d.smem_per_sm / 1024,
                d.smem_per_block_optin / 1024);
    std::printf("memory              %.1f GiB, %d-bit bus, %.0f MHz, nominal %.2f TB/s\n",
                d.global_mem_bytes / 1073741824.0, d.memory_bus_width_bits,
                d.memory_clock_khz / 1e3, d.nominal_dram_bytes_per_s() / 1e12);
    std::printf("ECC                 %s\n", d.ecc_enabled ? "on" : "off");
    std::printf("driver / runtime    %s / %s\n",
                cuprobe::device_info::version_text(d.driver_version).c_str(),
                cuprobe::device_info::version_text(d.runtime_version).c_str());
    return 0;
  } catch (const cuprobe::error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
