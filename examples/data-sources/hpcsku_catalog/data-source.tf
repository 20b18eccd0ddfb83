# Every current NVIDIA size with InfiniBand, priced in East US.
data "hpcsku_catalog" "ib_gpus" {
  gpu_vendor = "nvidia"
  rdma       = true
  region     = "eastus"
}

output "ib_gpu_sizes" {
  value = {
    for s in data.hpcsku_catalog.ib_gpus.skus : s.name => {
      gpus       = s.gpu.count
      gpu        = s.gpu.model
      infiniband = "${s.network.infiniband} ${s.network.infiniband_gbps} Gb/s"
      usd_hour   = s.price.usd_per_hour
    }
  }
}

# Sizes with at least 1 TiB of GPU memory per VM, any vendor.
data "hpcsku_catalog" "big_memory" {
  categories         = ["gpu"]
  min_gpu_memory_gib = 1024
}

# The whole catalog, retired sizes included, for audits. Each size is a summary
# (name, family, vCPUs, memory, GPU, InfiniBand, lifecycle, and the price when
# `region` is set); `full_records = true` adds every size's full record, with
# its performance figures and sources, in `sku_records`.
data "hpcsku_catalog" "everything" {
  include_retired = true
}

# Memory bandwidth of every HPC size, from the full records.
data "hpcsku_catalog" "hpc_records" {
  categories   = ["hpc"]
  full_records = true
}

output "hpc_stream_gbs" {
  value = { for name, record in data.hpcsku_catalog.hpc_records.sku_records : name => record.performance.cpu.stream_gbs }
}

output "retired_sizes" {
  value = [for s in data.hpcsku_catalog.everything.skus : s.name if s.lifecycle.status == "retired"]
}
