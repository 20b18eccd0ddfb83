# A GPU node pool for an existing AKS cluster, sized by hpcsku.
#
# With `target = "aks"` the recommendation keeps only sizes AKS supports and
# returns the node pool settings for the size: the taint that keeps other pods
# off the GPUs, labels for node selectors (AKS itself labels GPU nodes with
# kubernetes.azure.com/accelerator), and whether AKS should install the GPU
# driver (`Install` for NVIDIA sizes; `None` where the driver comes from an
# operator, as for AMD GPUs; null for a CPU size, which has no GPU driver).

# For a served model stated the way serving engineers state one (model_name,
# a load in tokens_per_second or requests_per_second, latency targets), the
# recommendation derives the requests in flight, searches each size's
# layouts (tensor parallelism, copies, batch per copy) and sizes the nodes
# that carry the load within 90% of their capacity; the pool keeps that many.

data "hpcsku_recommendation" "pool" {
  workload = var.workload
  model = {
    name               = var.model_name
    parameters_billion = var.model_name == null ? var.model_parameters_billion : null
    precision          = var.model_name == null ? var.precision : null
    class              = var.model_class
  }
  fine_tuning_method           = var.workload == "fine_tuning" ? var.fine_tuning_method : null
  prompt_tokens                = var.prompt_tokens
  output_tokens                = var.output_tokens
  tokens_per_second            = var.tokens_per_second
  requests_per_second          = var.requests_per_second
  max_time_to_first_token_ms   = var.max_time_to_first_token_ms
  max_time_per_output_token_ms = var.max_time_per_output_token_ms
  min_replicas                 = var.min_replicas
  gpu_vendor                   = var.gpu_vendor
  target                       = "aks"
  region                       = var.location
  prefer                       = var.prefer
  spot                         = var.spot
  confidential                 = var.confidential
}

locals {
  top        = data.hpcsku_recommendation.pool.recommendations[0]
  load       = var.tokens_per_second != null || var.requests_per_second != null
  aks        = local.top.deployment.aks
  zones      = try(length(local.top.deployment.zones) > 0 ? local.top.deployment.zones : null, null)
  infiniband = local.top.deployment.rdma_placement != null && local.zones != null
}

resource "azurerm_kubernetes_cluster_node_pool" "gpu" {
  name                  = var.name
  kubernetes_cluster_id = var.kubernetes_cluster_id
  vm_size               = data.hpcsku_recommendation.pool.vm_size
  vnet_subnet_id        = var.vnet_subnet_id
  mode                  = "User"
  os_type               = "Linux"
  # The size's own OS where it needs one (Ubuntu 24.04 for confidential GPUs
  # and ND GB200/GB300), else the stated or default one.
  os_sku = coalesce(var.os_sku, local.aks.os_sku, "Ubuntu")

  # With the provider's availability_file: the zones of the region where the
  # subscription can deploy the size; null (no zone pinning) without it. A
  # pool whose job runs over InfiniBand across VMs stays in one zone: its
  # nodes must share one InfiniBand network.
  zones = local.infiniband ? slice(local.zones, 0, min(1, length(local.zones))) : local.zones

  # Spot: priority, eviction policy and price cap; node_taints and
  # node_labels then carry the Spot taint and label AKS puts on the nodes.
  priority        = try(local.aks.spot.priority, "Regular")
  eviction_policy = try(local.aks.spot.eviction_policy, null)
  spot_max_price  = try(local.aks.spot.spot_max_price, -1)

  node_taints = local.aks.node_taints
  node_labels = local.aks.node_labels
  gpu_driver  = local.aks.gpu_driver

  # A service stated by its load keeps the nodes that carry it; other pools
  # autoscale from min_count.
  auto_scaling_enabled = true
  min_count            = local.load ? max(var.min_count, local.top.nodes) : var.min_count
  max_count            = max(var.max_count, local.top.nodes)

  tags = merge(var.tags, { "hpcsku/vm-size" = data.hpcsku_recommendation.pool.vm_size })
}
