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
  default = "Standard_ND96asr_v4"
}

variable "nodes" {
  type    = number
  default = 12
}

locals {
  # Pretraining a 7B model on 2,000 billion tokens: 6 x 7e9 x 2,000e9 =
  # 8.4e22 FLOPs. On 12 VMs of 8 A100s (312 dense bf16 TFLOPS each) at 40%
  # model FLOPs utilization that is 1947.56 hours; on 8 VMs, 2921.34.
  run_hours = provider::hpcsku::estimate_training_hours(7, 2000, var.gpu_size, var.nodes, "bf16")

  # A quarter: 365 days x 24 hours / 4.
  quarter_hours = 2190
}

output "pretraining_hours" {
  value = local.run_hours

  precondition {
    condition     = local.run_hours <= local.quarter_hours
    error_message = "${var.nodes} x ${var.gpu_size} need ${local.run_hours} hours to pretrain the model; the run must finish within a quarter (${local.quarter_hours} hours). Add VMs or choose a faster size."
  }
}

# The same run in fp8 on 8 VMs of 8 H100s (1,979 dense fp8 TFLOPS each):
# 8.4e22 / (8 x 8 x 1,979e12 x 0.40) = 460.57 hours.
output "h100_fp8_hours" {
  value = provider::hpcsku::estimate_training_hours(7, 2000, "Standard_ND96isr_H100_v5", 8, "fp8")
}
