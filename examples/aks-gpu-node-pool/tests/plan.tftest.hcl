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
    condition = azurerm_kubernetes_cluster_node_pool.gpu.node_labels == tomap({
      "hpcsku.io/vm-size"   = output.vm_size
      "hpcsku.io/gpu-model" = data.hpcsku_recommendation.pool.recommendations[0].sku.gpu.model_id
    })
    error_message = "node_labels should be the size and GPU model labels: ${jsonencode(azurerm_kubernetes_cluster_node_pool.gpu.node_labels)}"
  }

  # AKS labels GPU nodes with kubernetes.azure.com/accelerator itself; the
  # deprecated `accelerator` label is not set.
  assert {
    condition     = !contains(keys(azurerm_kubernetes_cluster_node_pool.gpu.node_labels), "accelerator")
    error_message = "The pool should not carry the deprecated accelerator label."
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
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.gpu_driver == "None" && data.hpcsku_recommendation.pool.recommendations[0].sku.gpu.vendor == "amd" && !contains(keys(azurerm_kubernetes_cluster_node_pool.gpu.node_labels), "accelerator")
    error_message = "An AMD pool should leave the driver to the operator: ${jsonencode(output.node_settings)}"
  }

  assert {
    condition     = strcontains(output.note, "AMD GPU operator")
    error_message = "The note should name the AMD GPU operator."
  }
}

# LoRA on a 7B model in bf16: a frozen 13.04 GiB base, 1% of the parameters
# as adapters with their optimizer states (1.04 GiB) and the activations of
# one 4,096-token sequence (7e9 x 0.25 bytes = 1.63 GiB without the
# architecture): 15.71 GiB, a tenth of full fine-tuning's 130.39, on one GPU.
run "lora_pool_needs_one_gpu" {
  command = plan

  variables {
    fine_tuning_method = "lora"
  }

  assert {
    condition     = data.hpcsku_recommendation.pool.requirements.fine_tuning_method == "lora" && data.hpcsku_recommendation.pool.requirements.gpu_memory_gib == 15.71
    error_message = "LoRA should need 15.71 GiB: ${data.hpcsku_recommendation.pool.requirements.memory.formula}"
  }

  assert {
    condition     = data.hpcsku_recommendation.pool.recommendations[0].total_gpus <= 1 && data.hpcsku_recommendation.pool.recommendations[0].nodes == 1
    error_message = "A LoRA fine-tune of a 7B model should fit one GPU: ${output.vm_size}"
  }
}

# A small model runs on a CPU size: no taint, no GPU label, and gpu_driver
# null. azurerm's node pool takes only "Install" or "None" there, so an empty
# string would fail this plan.
run "cpu_pool_has_no_gpu_driver" {
  command = plan

  variables {
    name                     = "cpu"
    workload                 = "inference"
    model_class              = "small"
    model_parameters_billion = 0.3
    precision                = "fp32"
  }

  assert {
    condition     = data.hpcsku_recommendation.pool.recommendations[0].sku.gpu == null && azurerm_kubernetes_cluster_node_pool.gpu.vm_size == output.vm_size
    error_message = "A small model should get a CPU size: ${output.vm_size}"
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.gpu_driver == null && output.node_settings.gpu_driver == null
    error_message = "A CPU pool should have no gpu_driver: ${jsonencode(output.node_settings)}"
  }

  assert {
    condition     = length(azurerm_kubernetes_cluster_node_pool.gpu.node_taints) == 0 && azurerm_kubernetes_cluster_node_pool.gpu.node_labels == tomap({ "hpcsku.io/vm-size" = output.vm_size })
    error_message = "A CPU pool should have no taint and only the size label: ${jsonencode(output.node_settings)}"
  }

  assert {
    condition     = output.node_auto_provisioning.values[0] == output.vm_size && alltrue([for r in data.hpcsku_recommendation.pool.recommendations : r.sku.gpu == null if contains(output.node_auto_provisioning.values, r.vm_size)])
    error_message = "The NodePool requirement should list CPU sizes, the pool's first: ${jsonencode(output.node_auto_provisioning)}"
  }
}

# The node auto-provisioning requirement lists the ranked sizes of the top
# size's CPU architecture, in ranking order, the top size first.
run "node_auto_provisioning_requirement" {
  command = plan

  assert {
    condition     = output.node_auto_provisioning.key == "karpenter.azure.com/sku-name" && output.node_auto_provisioning.operator == "In"
    error_message = "The requirement should select on karpenter.azure.com/sku-name with In: ${jsonencode(output.node_auto_provisioning)}"
  }

  assert {
    condition     = output.node_auto_provisioning.values[0] == azurerm_kubernetes_cluster_node_pool.gpu.vm_size
    error_message = "The pool's size should come first: ${jsonencode(output.node_auto_provisioning.values)}"
  }

  assert {
    condition = output.node_auto_provisioning.values == tolist([
      for r in data.hpcsku_recommendation.pool.recommendations : r.vm_size
      if r.deployment.cpu_architecture == data.hpcsku_recommendation.pool.recommendations[0].deployment.cpu_architecture
    ])
    error_message = "The values should be the ranked sizes of the same CPU architecture, in order: ${jsonencode(output.node_auto_provisioning.values)}"
  }
}

# Serving a 70B model on the arm64 GB200 (pinned with prefer), with x86_64
# sizes ranked after it. A NodePool boots one node image architecture, so the
# requirement lists the arm64 sizes alone; AKS installs no GPU driver on
# arm64 nodes, so gpu_driver is None (catalog decision D56).
run "node_auto_provisioning_keeps_one_cpu_architecture" {
  command = plan

  variables {
    workload                 = "inference"
    model_parameters_billion = 70
    prefer                   = ["Standard_ND128isr_NDR_GB200_v6"]
  }

  assert {
    condition     = length(distinct([for r in data.hpcsku_recommendation.pool.recommendations : r.deployment.cpu_architecture])) == 2
    error_message = "This run needs a ranking that mixes CPU architectures: ${jsonencode([for r in data.hpcsku_recommendation.pool.recommendations : [r.vm_size, r.deployment.cpu_architecture]])}"
  }

  assert {
    condition     = output.node_auto_provisioning.values[0] == output.vm_size && alltrue([for v in output.node_auto_provisioning.values : contains([for r in data.hpcsku_recommendation.pool.recommendations : r.vm_size if r.deployment.cpu_architecture == "arm64"], v)])
    error_message = "The requirement should list only arm64 sizes, the top size first: ${jsonencode(output.node_auto_provisioning.values)}"
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.gpu_driver == "None" && strcontains(output.note, "GPU Operator")
    error_message = "An arm64 GPU pool should skip AKS's driver and use the NVIDIA GPU Operator: ${azurerm_kubernetes_cluster_node_pool.gpu.gpu_driver}, ${output.note}"
  }
}

# Training a 70B model: the GB200 leads on several VMs over InfiniBand, which
# must share one scale set, so node auto-provisioning cannot place the job:
# no requirement, and the note says so and names the AKSInfinibandSupport
# feature registration InfiniBand pools need (D56).
run "multi_vm_infiniband_job_gets_no_node_auto_provisioning" {
  command = plan

  variables {
    workload                 = "training"
    model_parameters_billion = 70
  }

  assert {
    condition     = output.nodes_per_job > 1 && data.hpcsku_recommendation.pool.recommendations[0].deployment.rdma && output.node_auto_provisioning == null
    error_message = "A multi-VM InfiniBand job should get no node auto-provisioning requirement: ${jsonencode(output.node_auto_provisioning)}"
  }

  assert {
    condition     = strcontains(output.note, "Node auto-provisioning cannot place this job") && strcontains(output.note, "AKSInfinibandSupport")
    error_message = "The note should say why and name the feature registration: ${output.note}"
  }
}

run "pool_name_is_validated" {
  command = plan

  variables {
    name = "GPU-pool-with-a-long-name"
  }

  expect_failures = [var.name]
}

# A Spot pool: priority, eviction policy and price cap, with the Spot taint
# and label AKS puts on Spot nodes (azurerm plans to remove the taint
# unless the configuration sets it).
run "spot_pool_gets_priority_eviction_taint_and_label" {
  command = plan

  variables {
    spot = true
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.priority == "Spot" && azurerm_kubernetes_cluster_node_pool.gpu.eviction_policy == "Delete" && azurerm_kubernetes_cluster_node_pool.gpu.spot_max_price == -1
    error_message = "A Spot pool needs priority, eviction_policy and spot_max_price."
  }

  assert {
    condition     = contains(azurerm_kubernetes_cluster_node_pool.gpu.node_taints, "kubernetes.azure.com/scalesetpriority=spot:NoSchedule") && azurerm_kubernetes_cluster_node_pool.gpu.node_labels["kubernetes.azure.com/scalesetpriority"] == "spot"
    error_message = "A Spot pool carries the Spot taint and label: ${jsonencode(azurerm_kubernetes_cluster_node_pool.gpu.node_taints)}"
  }
}

# A confidential GPU pool: no driver from AKS (the GPU Operator installs the
# signed one) on Ubuntu 24.04.
run "confidential_pool_takes_no_driver_on_ubuntu_2404" {
  command = plan

  variables {
    location                 = "eastus2"
    workload                 = "inference"
    model_parameters_billion = 8
    confidential             = true
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.vm_size == "Standard_NCC40ads_H100_v5" && azurerm_kubernetes_cluster_node_pool.gpu.gpu_driver == "None" && azurerm_kubernetes_cluster_node_pool.gpu.os_sku == "Ubuntu2404"
    error_message = "The confidential pool should take gpu_driver None on Ubuntu2404: ${azurerm_kubernetes_cluster_node_pool.gpu.vm_size}, ${azurerm_kubernetes_cluster_node_pool.gpu.gpu_driver}, ${azurerm_kubernetes_cluster_node_pool.gpu.os_sku}."
  }
}

# A service stated the way serving engineers state one: Llama 3.1 70B at
# 10,000 output tokens per second with the first token within 500 ms. The
# requests in flight are derived from the load, the top size carries it with
# its first token within the target at that load, and the pool keeps the
# nodes that carry it.
run "service_by_load_keeps_the_nodes_that_carry_it" {
  command = plan

  variables {
    workload                   = "inference"
    model_name                 = "llama-3.1-70b"
    tokens_per_second          = 10000
    max_time_to_first_token_ms = 500
  }

  assert {
    condition     = output.service.tokens_per_second >= 10000 && output.service.time_to_first_token_ms <= 500
    error_message = "The top size should carry 10,000 tokens per second with its first token within 500 ms: ${jsonencode(output.service)}"
  }

  assert {
    condition     = strcontains(data.hpcsku_recommendation.pool.requirements.defaults.concurrent_requests, "derived from the load") && output.service.concurrent_requests == data.hpcsku_recommendation.pool.requirements.concurrent_requests
    error_message = "The requests in flight should be derived from the load: ${jsonencode(data.hpcsku_recommendation.pool.requirements.defaults)}"
  }

  assert {
    condition     = azurerm_kubernetes_cluster_node_pool.gpu.min_count == output.nodes_per_job && azurerm_kubernetes_cluster_node_pool.gpu.max_count >= output.nodes_per_job
    error_message = "The pool should keep the ${output.nodes_per_job} nodes that carry the load: min_count ${azurerm_kubernetes_cluster_node_pool.gpu.min_count}"
  }

  assert {
    condition     = length(output.service.vllm_args) > 0 && contains(output.service.vllm_args, "--tensor-parallel-size=${data.hpcsku_recommendation.pool.recommendations[0].tensor_parallel_size}")
    error_message = "The service should carry the layout's vLLM arguments: ${jsonencode(output.service.vllm_args)}"
  }
}
