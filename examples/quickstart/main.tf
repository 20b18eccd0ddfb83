# Quickstart: from a workload to ranked, explained Azure VM sizes, offline,
# with no credentials. Run it from the repository root with `make quickstart`.

terraform {
  required_providers {
    hpcsku = {
      source = "hpcsku/hpcsku"
    }
  }
}

provider "hpcsku" {
  # Pin the date lifecycle judgements use, so the plan is reproducible.
  as_of = "2026-11-22"
}

# Fine-tune a 7B model in bf16 on AKS, priced in East US.
data "hpcsku_recommendation" "fine_tune" {
  workload = "fine_tuning"
  model = {
    parameters_billion = 7
    precision          = "bf16"
  }
  target = "aks"
  region = "eastus"
}

# A size CycleCloud's Slurm template still ships as its GPU default.
data "hpcsku_sku" "old_default" {
  name = "Standard_NC24rs_v3"
}

output "vm_size" {
  description = "The top-ranked size, ready for azurerm_kubernetes_cluster_node_pool.vm_size."
  value       = data.hpcsku_recommendation.fine_tune.vm_size
}

output "ranking" {
  description = "The ranked sizes with nodes, GPUs and price."
  value = [
    for r in data.hpcsku_recommendation.fine_tune.recommendations :
    format("%d. %-28s score %5.1f  %d VM x %g %s  $%.2f/h", r.rank, r.vm_size, r.score, r.nodes, r.gpus_per_node, r.sku.gpu.model, r.total_price_per_hour)
  ]
}

output "why_the_top_pick" {
  description = "The reasons and warnings of the top pick."
  value = {
    reasons  = data.hpcsku_recommendation.fine_tune.recommendations[0].reasons
    warnings = data.hpcsku_recommendation.fine_tune.recommendations[0].warnings
  }
}

output "requirements" {
  description = "What the engine derived from the workload."
  value = {
    gpu_memory_gib = data.hpcsku_recommendation.fine_tune.requirements.gpu_memory_gib
    formula        = data.hpcsku_recommendation.fine_tune.requirements.memory.formula
    interconnect   = data.hpcsku_recommendation.fine_tune.requirements.interconnect
  }
}

output "rejected" {
  description = "How many sizes each hard constraint removed."
  value       = { for r in data.hpcsku_recommendation.fine_tune.rejected : r.constraint => "${r.count} (e.g. ${join(", ", r.examples)})" }
}

output "aks_node_pool" {
  description = "Settings for azurerm_kubernetes_cluster_node_pool."
  value       = data.hpcsku_recommendation.fine_tune.recommendations[0].deployment.aks
}

output "nc24rs_v3" {
  description = "Lifecycle of a size that is still shipped as a default."
  value = {
    retired      = data.hpcsku_sku.old_default.retired
    retired_on   = data.hpcsku_sku.old_default.sku.lifecycle.retirement_date
    replacements = data.hpcsku_sku.old_default.replacements
  }
}
