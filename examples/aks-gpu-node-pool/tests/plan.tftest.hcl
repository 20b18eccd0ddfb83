# Plans the module against the real azurerm schema (mock_provider keeps azurerm
# from calling Azure) and checks that the recommendation's AKS settings reach
# the node pool. The date is pinned so that the ranking does not move.

mock_provider "azurerm" {}

provider "hpcsku" {
  as_of = "2026-11-22"
}

variables {
  kubernetes_cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks"
  location              = "eastus"
}

run "nvidia_pool_gets_taints_labels_and_driver" {
  command = plan

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.vm_size == data.hpcsku_recommendation.pool.vm_size
    error_message = "vm_size should be the recommended size."
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.node_taints == data.hpcsku_recommendation.pool.recommendations[0].deployment.aks.node_taints && length(azurerm_kubernetes_cluster_node_pool.gpu.node_taints) > 0
    error_message = "node_taints should be the recommended taints."
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.node_labels["accelerator"] == "nvidia" && azurerm_kubernetes_cluster_node_pool.gpu.node_labels["hpcsku.io/vm-size"] == output.vm_size
    error_message = "node_labels should be the recommended labels."
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.gpu_driver == "Install"
    error_message = "AKS should install the NVIDIA driver."
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.min_count == 0 && azurerm_kubernetes_cluster_node_pool.gpu.max_count >= output.nodes_per_job
    error_message = "The autoscaler should be able to reach the nodes one job needs."
  }
}

# AMD GPUs on AKS get their driver from the AMD GPU operator, not from AKS.
run "amd_pool_leaves_the_driver_to_the_operator" {
  command = plan

  variables {
    location                 = "eastus2"
    workload                 = "inference"
    model_parameters_billion = 70
    gpu_vendor               = "amd"
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.gpu_driver == "None" && azurerm_kubernetes_cluster_node_pool.gpu.node_labels["accelerator"] == "amd"
    error_message = "An AMD pool should leave the driver to the operator: ${jsonencode(output.node_settings)}"
  }

  assert {
    condition     = strcontains(output.note, "AMD GPU operator")
    error_message = "The note should name the AMD GPU operator."
  }
}

run "pool_name_is_validated" {
  command = plan

  variables {
    name = "GPU-pool-with-a-long-name"
  }

  expect_failures = [var.name]
}
