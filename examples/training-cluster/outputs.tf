output "vm_size" {
  description = "The size of the scale set."
  value       = data.hpcsku_recommendation.training.vm_size
}

output "instances" {
  description = "VMs in the scale set: the nodes the job needs on this size."
  value       = local.top.nodes
}

output "rdma" {
  description = "Whether the job uses InfiniBand between VMs, and so a single and a proximity placement group."
  value       = local.deployment.rdma
}

output "image" {
  description = "The marketplace image the VMs boot."
  value       = local.image
}

output "price_per_hour" {
  description = "USD per hour for the whole scale set, pay-as-you-go, in `location`."
  value       = local.top.total_price_per_hour
}

output "reasons" {
  description = "Why the size was chosen, and what to watch."
  value = {
    reasons  = local.top.reasons
    warnings = local.top.warnings
  }
}

output "fallback_sizes" {
  description = "The ranked alternatives, for when the region has no capacity for the first choice (pass them to `prefer`)."
  value       = data.hpcsku_recommendation.training.vm_sizes
}

output "scale_set_id" {
  description = "ID of the scale set."
  value       = azurerm_linux_virtual_machine_scale_set.training.id
}

output "proximity_placement_group_id" {
  description = "ID of the proximity placement group; null when the job does not use RDMA."
  value       = one(azurerm_proximity_placement_group.training[*].id)
}
