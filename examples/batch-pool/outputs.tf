output "vm_size" {
  description = "The size of the pool's nodes."
  value       = local.batch.vm_size
}

output "node_agent_sku_id" {
  description = "The Batch node agent the pool uses."
  value       = local.node_agent
}

output "image" {
  description = "The marketplace image the nodes boot, as `publisher`, `offer`, `sku`, `version`; null when there is none (the plan then fails)."
  value       = local.image
}

output "inter_node_communication" {
  description = "`Enabled` when one job spans the pool's nodes (MPI multi-instance tasks), else `Disabled`."
  value       = local.batch.inter_node_communication
}

output "target_nodes" {
  description = "The fixed node counts: `dedicated`, and `spot` (Batch's `target_low_priority_nodes`)."
  value = {
    dedicated = local.batch.target_dedicated_nodes
    spot      = local.batch.target_low_priority_nodes
  }
}

output "rdma" {
  description = "Whether the job uses InfiniBand between nodes."
  value       = local.top.deployment.rdma
}

output "note" {
  description = "What else the pool needs, from the recommendation."
  value       = local.batch.note
}

output "price_per_hour" {
  description = "USD per hour for the whole pool in `location`: spot estimates when `price_is_spot`, else pay-as-you-go; null where the catalog has no price."
  value       = local.top.total_price_per_hour
}

output "price_is_spot" {
  description = "Whether the prices are spot estimates."
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
  value       = data.hpcsku_recommendation.pool.vm_sizes
}

output "pool_id" {
  description = "ID of the pool."
  value       = azurerm_batch_pool.pool.id
}
