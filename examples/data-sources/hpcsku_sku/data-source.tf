# Look up one size: GPU, CUDA, InfiniBand, price, performance and lifecycle facts.
data "hpcsku_sku" "h100" {
  name   = "Standard_ND96isr_H100_v5"
  region = "eastus"
}

output "h100" {
  value = {
    gpus               = "${data.hpcsku_sku.h100.sku.gpu.count} x ${data.hpcsku_sku.h100.sku.gpu.model}"
    compute_capability = data.hpcsku_sku.h100.sku.gpu.compute_capability
    newest_cuda_major  = data.hpcsku_sku.h100.sku.gpu.max_cuda_major
    infiniband         = data.hpcsku_sku.h100.sku.network.infiniband
    usd_per_hour       = data.hpcsku_sku.h100.sku.price.usd_per_hour
    image              = data.hpcsku_sku.h100.sku.image.urn
  }
}

# Performance figures are per GPU and dense (no structured sparsity); multiply
# by gpu.count for the VM. Each figure's sources are keyed by its name.
locals {
  h100_gpu = data.hpcsku_sku.h100.sku.performance.gpu
}

output "h100_performance" {
  value = {
    bf16_tflops_per_gpu  = local.h100_gpu.bf16_tflops
    fp8_tflops_per_gpu   = local.h100_gpu.fp8_tflops
    bf16_tflops_per_vm   = local.h100_gpu.bf16_tflops * data.hpcsku_sku.h100.sku.gpu.count
    memory_bandwidth_gbs = local.h100_gpu.memory_bandwidth_gbs
    nvlink_gbs_per_gpu   = local.h100_gpu.nvlink_gbs_per_gpu
    bf16_sources         = local.h100_gpu.sources["bf16_tflops"]
  }
}

# CPU and HPC sizes carry per-VM figures: STREAM memory bandwidth and FP64 peak.
data "hpcsku_sku" "hbv4" {
  name = "Standard_HB176rs_v4"
}

output "hbv4_performance" {
  value = {
    cores             = data.hpcsku_sku.hbv4.sku.performance.cpu.cores
    stream_gbs        = data.hpcsku_sku.hbv4.sku.performance.cpu.stream_gbs
    fp64_peak_gflops  = data.hpcsku_sku.hbv4.sku.performance.cpu.fp64_peak_gflops
    fp64_peak_derived = data.hpcsku_sku.hbv4.sku.performance.cpu.fp64_peak_derived
  }
}

# Guard a size a configuration already uses: fail the plan once it is retired.
data "hpcsku_sku" "pinned" {
  name = "Standard_NC24ads_A100_v4"

  lifecycle {
    postcondition {
      condition     = !self.retired
      error_message = "${self.sku.name} is retired; move to one of: ${join(", ", self.replacements)}."
    }
  }
}
