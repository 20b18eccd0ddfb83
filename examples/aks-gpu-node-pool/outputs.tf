output "vm_size" {
  description = "The size of the node pool's VMs."
  value       = data.hpcsku_recommendation.pool.vm_size
}

output "node_settings" {
  description = "The taints, labels and GPU driver setting the pool got from the recommendation. Schedule GPU pods with a toleration for the taint and a node selector on a label. `gpu_driver` is `Install` (NVIDIA), `None` (AMD) or null (a CPU size)."
  value = {
    node_taints = local.aks.node_taints
    node_labels = local.aks.node_labels
    gpu_driver  = local.aks.gpu_driver
  }
}

output "note" {
  description = "What else the node pool needs (for example the NVIDIA or AMD GPU operator), or null."
  value       = local.aks.note
}

output "node_auto_provisioning" {
  description = "The same choice for AKS node auto-provisioning (Karpenter): a NodePool requirement `{ key = \"karpenter.azure.com/sku-name\", operator = \"In\", values }` whose values are the ranked sizes with the top size's CPU architecture that node auto-provisioning can place, the top size first. Put it in a NodePool's `spec.template.spec.requirements`. Null where node auto-provisioning cannot place the job (InfiniBand across VMs, AMD GPU sizes, constrained-core sizes): `note` says why."
  value       = local.aks.node_auto_provisioning
}

output "nodes_per_job" {
  description = "Nodes of this size one job needs."
  value       = local.top.nodes
}

output "price_per_node_hour" {
  description = "USD per node-hour in `location`, pay-as-you-go."
  value       = local.top.price_per_hour
}

output "node_pool_id" {
  description = "ID of the node pool."
  value       = azurerm_kubernetes_cluster_node_pool.gpu.id
}

output "service" {
  description = "For a served language model: the top size's capacity (output tokens per second), its times to the first token and per output token (at the stated load, idle without one), the requests in flight, the price per million output tokens, and the vLLM arguments of its layout. Null for other workloads."
  value = local.top.estimate.tokens_per_second == null || var.workload != "inference" ? null : {
    tokens_per_second        = local.top.estimate.tokens_per_second
    time_to_first_token_ms   = local.top.estimate.time_to_first_token_ms
    time_per_output_token_ms = local.top.estimate.time_per_output_token_ms
    concurrent_requests      = local.top.estimate.concurrent_requests
    cost_per_million_tokens  = local.top.estimate.cost_per_million_tokens
    vllm_args                = try(local.top.deployment.serving.vllm_args, null)
  }
}
