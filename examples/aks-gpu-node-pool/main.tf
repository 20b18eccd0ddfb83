# A GPU node pool for an existing AKS cluster, sized by hpcsku.
#
# With `target = "aks"` the recommendation keeps only sizes AKS supports and
# returns the node pool settings for the size: the taint that keeps other pods
# off the GPUs, labels for node selectors (AKS itself labels GPU nodes with
# kubernetes.azure.com/accelerator), and whether AKS should install the GPU
# driver (`Install` for NVIDIA sizes; `None` where the driver comes from an
# operator, as for AMD GPUs; null for a CPU size, which has no GPU driver).

data "hpcsku_recommendation" "pool" {
  workload = var.workload
  model = {
    parameters_billion = var.model_parameters_billion
    precision          = var.precision
    class              = var.model_class
  }
  fine_tuning_method = var.workload == "fine_tuning" ? var.fine_tuning_method : null
  gpu_vendor         = var.gpu_vendor
  target             = "aks"
  region             = var.location
  prefer             = var.prefer
}

locals {
  top = data.hpcsku_recommendation.pool.recommendations[0]
  aks = local.top.deployment.aks
}

resource "azurerm_kubernetes_cluster_node_pool" "gpu" {
  name                  = var.name
  kubernetes_cluster_id = var.kubernetes_cluster_id
  vm_size               = data.hpcsku_recommendation.pool.vm_size
  vnet_subnet_id        = var.vnet_subnet_id
  mode                  = "User"
  os_type               = "Linux"
  os_sku                = "Ubuntu"

  # With the provider's availability_file: the zones of the region where the
  # subscription can deploy the size; null (no zone pinning) without it.
  zones = try(length(local.top.deployment.zones) > 0 ? local.top.deployment.zones : null, null)

  node_taints = local.aks.node_taints
  node_labels = local.aks.node_labels
  gpu_driver  = local.aks.gpu_driver

  auto_scaling_enabled = true
  min_count            = var.min_count
  max_count            = max(var.max_count, local.top.nodes)

  tags = merge(var.tags, { "hpcsku/vm-size" = data.hpcsku_recommendation.pool.vm_size })
}
