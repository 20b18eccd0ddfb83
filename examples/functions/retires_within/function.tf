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

variable "partitions" {
  type = map(string)
  default = {
    hpc = "Standard_HB176rs_v4"
    gpu = "Standard_ND96isr_H100_v5"
  }
}

variable "cluster_lifetime_months" {
  type    = number
  default = 36
}

# Warn, without failing the plan, about sizes that retire before the cluster
# is due to be replaced.
check "partition_lifetime" {
  assert {
    condition = alltrue([
      for size in values(var.partitions) : !provider::hpcsku::retires_within(size, var.cluster_lifetime_months)
    ])
    error_message = "These sizes retire within ${var.cluster_lifetime_months} months: ${join(", ", [
      for size in values(var.partitions) : size if provider::hpcsku::retires_within(size, var.cluster_lifetime_months)
    ])}."
  }
}

# Fail the plan instead, in an output precondition.
output "partitions" {
  value = var.partitions

  precondition {
    condition = alltrue([
      for size in values(var.partitions) : !provider::hpcsku::retires_within(size, 12)
    ])
    error_message = "A partition size retires within 12 months; replace it before deploying."
  }
}
