# Provider-defined functions need Terraform 1.8 or later, and the provider in
# required_providers. They need no provider block.
terraform {
  required_version = ">= 1.8.0"

  required_providers {
    hpcsku = {
      source = "hpcsku/hpcsku"
    }
  }
}

# Check a size where a data source cannot go: in a variable validation.
variable "mpi_size" {
  type    = string
  default = "Standard_HB176rs_v4"

  validation {
    condition     = provider::hpcsku::sku(var.mpi_size).network.rdma
    error_message = "${var.mpi_size} has no RDMA (InfiniBand) network, which multi-node MPI needs."
  }
}

locals {
  h100 = provider::hpcsku::sku("Standard_ND96isr_H100_v5")
}

output "h100" {
  value = {
    gpus               = "${local.h100.gpu.count} x ${local.h100.gpu.model}"
    gpu_memory_gib     = local.h100.gpu.memory_gib_total
    compute_capability = local.h100.gpu.compute_capability
    infiniband         = "${local.h100.network.infiniband_gbps} Gb/s ${local.h100.network.infiniband}"
    image              = local.h100.image.urn
    aks                = local.h100.support.aks.status
  }
}
