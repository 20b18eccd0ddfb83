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

# Reject a retired size at plan time and name its replacement.
variable "gpu_size" {
  type    = string
  default = "Standard_NC80adis_H100_v5"

  validation {
    condition     = !provider::hpcsku::is_retired(var.gpu_size)
    error_message = "${var.gpu_size} is retired; move to ${join(" or ", provider::hpcsku::sku(var.gpu_size).lifecycle.replacement_sizes)}."
  }
}

# CycleCloud's Slurm template still ships Standard_NC24rs_v3 (retired on
# 2025-09-30) as its default GPU partition size.
output "nc24rs_v3_retired" {
  value = provider::hpcsku::is_retired("Standard_NC24rs_v3") # true
}
