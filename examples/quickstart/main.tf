# Quickstart: what the hpcsku provider knows, offline, with no credentials.
# Run it from the repository root with `make quickstart`.

terraform {
  required_providers {
    hpcsku = {
      source = "hpcsku/hpcsku"
    }
  }
}

provider "hpcsku" {
  as_of = "2026-11-22"
}

# Every current GPU size with an InfiniBand fabric, priced in East US.
data "hpcsku_catalog" "training_gpus" {
  categories = ["gpu"]
  rdma       = true
  region     = "eastus"
}

# One size CycleCloud's Slurm template still ships as its GPU default.
data "hpcsku_sku" "old_default" {
  name = "Standard_NC24rs_v3"
}

output "training_gpus_in_eastus" {
  description = "Current GPU sizes with InfiniBand, priced in East US."
  value = [
    for s in data.hpcsku_catalog.training_gpus.skus :
    format("%-32s %g x %-28s %s %4d Gb/s  cc %-4s  $%.2f/h", s.name, s.gpu.count, s.gpu.model, s.network.infiniband, s.network.infiniband_gbps, coalesce(s.gpu.compute_capability, s.gpu.gfx_target), s.price.usd_per_hour)
  ]
}

output "nc24rs_v3" {
  description = "Lifecycle of a size that is still shipped as a default."
  value = {
    retired      = data.hpcsku_sku.old_default.retired
    retired_on   = data.hpcsku_sku.old_default.sku.lifecycle.retirement_date
    replacements = data.hpcsku_sku.old_default.replacements
  }
}
