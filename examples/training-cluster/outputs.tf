output "vm_size" {
  description = "The size of the VMs."
  value       = data.hpcsku_recommendation.training.vm_size
}

output "instances" {
  description = "VMs in the scale set, or VMs of `target = \"vm\"`: the nodes the job needs on this size."
  value       = local.top.nodes
}

output "rdma" {
  description = "Whether the job uses the size's InfiniBand."
  value       = local.deployment.rdma
}

output "rdma_placement" {
  description = "Where the VMs must be for InfiniBand between them: `scale_set` (one scale set, single placement group), `availability_set` (one availability set), or null when no InfiniBand traffic crosses VMs."
  value       = local.deployment.rdma_placement
}

output "image" {
  description = "The marketplace image the VMs boot."
  value       = local.image
}

output "price_per_hour" {
  description = "USD per hour for all the VMs, pay-as-you-go, in `location`."
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
  description = "ID of the scale set; null with `target = \"vm\"`."
  value       = one(azurerm_linux_virtual_machine_scale_set.training[*].id)
}

output "vm_ids" {
  description = "IDs of the VMs with `target = \"vm\"`; empty for a scale set."
  value       = azurerm_linux_virtual_machine.training[*].id
}

output "availability_set_id" {
  description = "ID of the availability set of `target = \"vm\"` when the job uses InfiniBand across VMs; null otherwise."
  value       = one(azurerm_availability_set.training[*].id)
}

output "proximity_placement_group_id" {
  description = "ID of the proximity placement group; null unless `proximity_placement_group` is true."
  value       = one(azurerm_proximity_placement_group.training[*].id)
}

output "interconnect" {
  description = "For ND GB200 v6 and ND GB300 v6 across VMs: the scale set's rack settings azurerm cannot set (`high_speed_interconnect_placement`, the Compute `api_version`, `rack_vms`, `racks`, `interconnect_block_capacity`, `note`), to apply with azapi; null otherwise."
  value       = local.deployment.interconnect
}
