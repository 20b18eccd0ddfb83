output "vm_sizes" {
  description = "The approved size of each partition, by canonical name, for `azurerm_linux_virtual_machine.size`, `azurerm_linux_virtual_machine_scale_set.sku`, `azurerm_kubernetes_cluster_node_pool.vm_size` or a CycleCloud machine type. With `enforce = true`, a violated guardrail fails the plan here, so nothing that uses a size can be planned."
  value       = { for key, p in local.partitions : key => p.vm_size }

  precondition {
    condition     = !var.enforce || length(local.violations.retired) == 0
    error_message = "Retired VM size:\n${join("\n", local.violations.retired)}"
  }

  precondition {
    condition     = !var.enforce || length(local.violations.retiring) == 0
    error_message = "VM size retires within the horizon:\n${join("\n", local.violations.retiring)}"
  }

  precondition {
    condition     = !var.enforce || length(local.violations.rdma) == 0
    error_message = "Multi-node partition without RDMA:\n${join("\n", local.violations.rdma)}"
  }

  precondition {
    condition     = !var.enforce || length(local.violations.support) == 0
    error_message = "VM size not supported by the target:\n${join("\n", local.violations.support)}"
  }

  precondition {
    condition     = !var.enforce || length(local.violations.gpu_memory) == 0
    error_message = "Model does not fit in GPU memory:\n${join("\n", local.violations.gpu_memory)}"
  }
}

output "violations" {
  description = "Every violated guardrail, by rule (`gpu_memory`, `rdma`, `retired`, `retiring`, `support`), as messages that name the partition, the size and what to use instead. Empty lists when all is well."
  value       = local.violations
}

output "advisories" {
  description = "Findings that do not fail the plan: unknown support by the target, and retirements after the horizon."
  value       = local.advisories
}

output "today" {
  description = "Sizes retired or retiring within the horizon at today's date that the provider's `as_of` does not flag yet (the `today` check)."
  value       = local.today
}

output "partitions" {
  description = "The facts each rule used, per partition."
  value       = local.partitions
}

output "horizon_date" {
  description = "The horizon's last day (`YYYY-MM-DD`): sizes retiring on or before it fail the `retiring` rule."
  value       = local.horizon_date
}
