output "vm_size" {
  description = "The size of the cluster's nodes."
  value       = local.azureml.vm_size
}

output "vm_priority" {
  description = "`LowPriority` (preemptible, when `spot` is true) or `Dedicated`."
  value       = local.azureml.vm_priority
}

output "scale_settings" {
  description = "The node counts the cluster scales between, and the idle time before it scales down."
  value = {
    min_node_count                       = local.azureml.min_node_count
    max_node_count                       = local.max_node_count
    scale_down_nodes_after_idle_duration = var.scale_down_nodes_after_idle_duration
  }
}

output "nodes_per_job" {
  description = "VMs of this size one job needs (for inference, every copy of the model included). Submit distributed jobs with this `instance_count`."
  value       = local.azureml.max_node_count
}

output "rdma" {
  description = "Whether the job uses InfiniBand between nodes. Azure ML's image carries the InfiniBand driver on RDMA sizes."
  value       = local.top.deployment.rdma
}

output "price_per_node_hour" {
  description = "USD per node-hour in `location`: a spot estimate when `price_is_spot`, else pay-as-you-go; null where the catalog has no price."
  value       = local.top.price_per_hour
}

output "price_is_spot" {
  description = "Whether `price_per_node_hour` is a spot estimate (spot requested and a spot price known)."
  value       = local.top.price_is_spot
}

output "reasons" {
  description = "Why the size was chosen, and what to watch."
  value = {
    reasons  = local.top.reasons
    warnings = local.top.warnings
  }
}

output "fallback_sizes" {
  description = "The ranked alternatives, for when the region has no quota or capacity for the first choice (pass them to `prefer`)."
  value       = data.hpcsku_recommendation.cluster.vm_sizes
}

output "compute_cluster_id" {
  description = "ID of the compute cluster."
  value       = azurerm_machine_learning_compute_cluster.cluster.id
}
