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

variable "gpu_size" {
  type    = string
  default = "Standard_ND96isr_H100_v5"
}

variable "nodes" {
  type    = number
  default = 3
}

locals {
  # 1564.62 GiB: bf16 weights and gradients, fp32 master weights, Adam
  # moments, and 50% activation headroom.
  needed_gib    = provider::hpcsku::gpu_memory_gib(70, "bf16", "training")
  available_gib = provider::hpcsku::sku(var.gpu_size).gpu.memory_gib_total * var.nodes
}

output "gpu_memory" {
  value = {
    needed_gib    = local.needed_gib
    available_gib = local.available_gib
  }

  precondition {
    condition     = local.available_gib >= local.needed_gib
    error_message = "${var.nodes} x ${var.gpu_size} have ${local.available_gib} GiB of GPU memory; training a 70B model in bf16 needs ${local.needed_gib} GiB."
  }
}

# Serving the same model quantized to int4 needs 39.12 GiB.
output "int4_inference_gib" {
  value = provider::hpcsku::gpu_memory_gib(70, "int4", "inference")
}
