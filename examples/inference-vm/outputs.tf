output "vm_size" {
  description = "The size of the VM."
  value       = data.hpcsku_recommendation.inference.vm_size
}

output "gpu" {
  description = "The GPU model, count and memory of the size."
  value = {
    model      = local.top.sku.gpu.model
    count      = local.top.sku.gpu.count
    memory_gib = local.top.sku.gpu.memory_gib_total
  }
}

output "gpu_memory_needed_gib" {
  description = "The GPU memory the engine estimated for the model, its KV cache, and how."
  value = {
    gib          = data.hpcsku_recommendation.inference.requirements.gpu_memory_gib
    kv_cache_gib = data.hpcsku_recommendation.inference.requirements.kv_cache_gib
    formula      = data.hpcsku_recommendation.inference.requirements.memory.formula
  }
}

output "vllm_args" {
  description = "Arguments for `vllm serve MODEL`: the recommendation's `deployment.serving.vllm_args`, the layout the size was chosen for (parallelism, the copies the VM runs, the batch, the context, the precision and KV cache dtype), as cloud-init passes them; null where vLLM does not serve the size."
  value       = local.vllm_args == null ? null : join(" ", local.vllm_args)
}

output "image" {
  description = "The Marketplace image the VM boots: `image_urn`, or the one the recommendation names for the size."
  value       = local.image
}

output "price_per_hour" {
  description = "USD per hour in `location` (a spot estimate when `spot` is true)."
  value       = local.top.price_per_hour
}

output "reasons" {
  description = "Why the size was chosen, and what to watch."
  value = {
    reasons  = local.top.reasons
    warnings = local.top.warnings
  }
}

output "vm_id" {
  description = "ID of the VM."
  value       = azurerm_linux_virtual_machine.inference.id
}

output "private_ip_address" {
  description = "Private IP address of the VM."
  value       = azurerm_network_interface.inference.private_ip_address
}
