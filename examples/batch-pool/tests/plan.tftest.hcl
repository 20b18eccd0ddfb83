# Plans the module against the real azurerm schema (mock_provider keeps azurerm
# from calling Azure) and checks that the recommendation's Batch settings reach
# the pool. The date is pinned so that the ranking does not move.

mock_provider "azurerm" {}

provider "hpcsku" {
  as_of = "2026-11-22"
}

variables {
  resource_group_name = "rg-batch"
  batch_account_name  = "hpcskubatch"
  location            = "eastus"
}

# An MPI job of 1,536 cores: several HB VMs over InfiniBand, on the Azure HPC
# image with its Ubuntu 24.04 node agent.
run "mpi_pool_enables_inter_node_communication" {
  command = plan

  variables {
    workload = "hpc"
    cores    = 1536
  }

  assert {
    condition     = azurerm_batch_pool.pool.vm_size == data.hpcsku_recommendation.pool.vm_size && azurerm_batch_pool.pool.vm_size == data.hpcsku_recommendation.pool.recommendations[0].deployment.batch.vm_size
    error_message = "vm_size should be the recommended size."
  }

  assert {
    condition     = data.hpcsku_recommendation.pool.recommendations[0].nodes > 1 && output.rdma
    error_message = "1,536 cores of MPI should span several VMs over InfiniBand: ${data.hpcsku_recommendation.pool.recommendations[0].nodes}"
  }

  assert {
    condition     = azurerm_batch_pool.pool.inter_node_communication == "Enabled" && azurerm_batch_pool.pool.max_tasks_per_node == 1
    error_message = "A job across VMs needs inter-node communication and one task per node."
  }

  assert {
    condition     = azurerm_batch_pool.pool.fixed_scale[0].target_dedicated_nodes == data.hpcsku_recommendation.pool.recommendations[0].nodes && azurerm_batch_pool.pool.fixed_scale[0].target_low_priority_nodes == 0
    error_message = "Without spot every node of the job should be dedicated."
  }

  # The image URN, split into the four parts of storage_image_reference.
  assert {
    condition     = join(":", [for k in ["publisher", "offer", "sku", "version"] : azurerm_batch_pool.pool.storage_image_reference[0][k]]) == data.hpcsku_recommendation.pool.recommendations[0].deployment.image_urn
    error_message = "storage_image_reference should be the recommended image URN, split: ${jsonencode(azurerm_batch_pool.pool.storage_image_reference)}"
  }

  assert {
    condition     = azurerm_batch_pool.pool.storage_image_reference[0].publisher == "microsoft-dsvm" && azurerm_batch_pool.pool.storage_image_reference[0].offer == "ubuntu-hpc" && azurerm_batch_pool.pool.storage_image_reference[0].sku == "2404"
    error_message = "An HB size should boot the Azure HPC image, Ubuntu 24.04."
  }

  # The Batch team names microsoft-dsvm:ubuntu-hpc:2404 as a Batch image
  # (github.com/Azure/Batch/issues/200); Ubuntu 24.04's agent is
  # "batch.node.ubuntu 24.04".
  assert {
    condition     = azurerm_batch_pool.pool.node_agent_sku_id == "batch.node.ubuntu 24.04" && azurerm_batch_pool.pool.node_agent_sku_id == data.hpcsku_recommendation.pool.recommendations[0].deployment.batch.node_agent_sku_id
    error_message = "The node agent should match the Ubuntu 24.04 image: ${azurerm_batch_pool.pool.node_agent_sku_id}"
  }
}

# Independent tasks on one VM each, on Spot nodes in a user subscription account.
run "spot_htc_pool_is_all_spot_without_inter_node_communication" {
  command = plan

  variables {
    workload             = "htc"
    min_vcpus            = 16
    interconnect         = "any"
    spot                 = true
    pool_allocation_mode = "UserSubscription"
    max_tasks_per_node   = 4
  }

  assert {
    condition     = data.hpcsku_recommendation.pool.recommendations[0].nodes == 1 && azurerm_batch_pool.pool.inter_node_communication == "Disabled"
    error_message = "Tasks on one VM each need no inter-node communication."
  }

  assert {
    condition     = azurerm_batch_pool.pool.fixed_scale[0].target_dedicated_nodes == 0 && azurerm_batch_pool.pool.fixed_scale[0].target_low_priority_nodes == data.hpcsku_recommendation.pool.recommendations[0].nodes
    error_message = "With spot every node should be a Spot node (target_low_priority_nodes), none dedicated: ${jsonencode(output.target_nodes)}"
  }

  assert {
    condition     = azurerm_batch_pool.pool.max_tasks_per_node == 4
    error_message = "A pool without inter-node communication should keep max_tasks_per_node."
  }
}

# An htc pool on F v7 (a per-core licensed solver's favourite) plans with
# the Batch-verified Ubuntu Server 24.04 image and its node agent (D72).
run "f_v7_pool_gets_its_documented_image" {
  command = plan

  variables {
    workload     = "htc"
    cores        = 10000
    interconnect = "any"
    prefer       = ["Standard_F80alds_v7"]
  }

  assert {
    condition     = azurerm_batch_pool.pool.vm_size == "Standard_F80alds_v7" && azurerm_batch_pool.pool.storage_image_reference[0].offer == "ubuntu-24_04-lts" && azurerm_batch_pool.pool.node_agent_sku_id == "batch.node.ubuntu 24.04"
    error_message = "F v7 should plan with its documented image: ${azurerm_batch_pool.pool.vm_size}, ${azurerm_batch_pool.pool.node_agent_sku_id}"
  }

  # 10,000 one-core tasks on 125 nodes of 80 vCPUs: 80 at once on each node,
  # where Batch's default would run one.
  assert {
    condition     = azurerm_batch_pool.pool.max_tasks_per_node == 80 && azurerm_batch_pool.pool.max_tasks_per_node == data.hpcsku_recommendation.pool.recommendations[0].deployment.batch.max_tasks_per_node
    error_message = "An htc pool should run the layout's tasks per node: ${azurerm_batch_pool.pool.max_tasks_per_node}"
  }
}

# Spot in a Batch-managed account would ask for low-priority VMs, retired on
# 2025-09-30.
run "spot_needs_user_subscription_mode" {
  command = plan

  variables {
    workload     = "htc"
    min_vcpus    = 16
    interconnect = "any"
    spot         = true
  }

  expect_failures = [azurerm_batch_pool.pool]
}

# 70B training: the GB200, which leads, has Grace (arm64) CPUs and the arm64
# ubuntu-hpc:2404-gb image, which no Batch source lists (its Batch support is
# unconfirmed, catalog decision D54), so no node agent: the plan fails and
# says so.
run "size_without_image_needs_the_users_image" {
  command = plan

  variables {
    workload                 = "training"
    model_parameters_billion = 70
    tokens_billion           = 100
    deadline_hours           = 720
  }

  expect_failures = [azurerm_batch_pool.pool]
}

run "users_image_with_its_agent" {
  command = plan

  variables {
    workload                 = "training"
    model_parameters_billion = 70
    tokens_billion           = 100
    deadline_hours           = 720
    image_urn                = "contoso:gb200-hpc:ubuntu-2404-arm64:1.0.0"
    node_agent_sku_id        = "batch.node.ubuntu 24.04-arm64"
  }

  assert {
    condition     = data.hpcsku_recommendation.pool.recommendations[0].deployment.image_urn == "microsoft-dsvm:ubuntu-hpc:2404-gb:latest" && data.hpcsku_recommendation.pool.recommendations[0].deployment.batch.node_agent_sku_id == null
    error_message = "The leading size should have the arm64 catalog image and no node agent."
  }

  assert {
    condition     = azurerm_batch_pool.pool.storage_image_reference[0].publisher == "contoso" && azurerm_batch_pool.pool.storage_image_reference[0].offer == "gb200-hpc" && azurerm_batch_pool.pool.storage_image_reference[0].sku == "ubuntu-2404-arm64" && azurerm_batch_pool.pool.storage_image_reference[0].version == "1.0.0"
    error_message = "image_urn should be split into storage_image_reference."
  }

  assert {
    condition     = azurerm_batch_pool.pool.node_agent_sku_id == "batch.node.ubuntu 24.04-arm64" && azurerm_batch_pool.pool.inter_node_communication == "Enabled"
    error_message = "The user's node agent should be used, and a job across VMs should enable inter-node communication."
  }
}

# The MI300X boots the ROCm build of the Azure HPC image, which no Batch source
# lists, so the catalog gives no node agent for it: the plan fails and asks for
# one.
run "catalog_image_without_node_agent_fails" {
  command = plan

  variables {
    location                 = "eastus2"
    workload                 = "inference"
    model_parameters_billion = 70
    gpu_vendor               = "amd"
  }

  expect_failures = [azurerm_batch_pool.pool]
}

# With the agent from the user, the catalog's image is kept.
run "catalog_image_with_the_users_node_agent" {
  command = plan

  variables {
    location                 = "eastus2"
    workload                 = "inference"
    model_parameters_billion = 70
    gpu_vendor               = "amd"
    node_agent_sku_id        = "batch.node.ubuntu 24.04"
  }

  assert {
    condition     = data.hpcsku_recommendation.pool.recommendations[0].deployment.batch.node_agent_sku_id == null && data.hpcsku_recommendation.pool.recommendations[0].deployment.image_urn == "microsoft-dsvm:ubuntu-hpc:2404-rocm:latest" && data.hpcsku_recommendation.pool.recommendations[0].deployment.batch.image.sku == "2404-rocm"
    error_message = "An MI300X size should have the ROCm image, split into deployment.batch.image, and no catalog node agent."
  }

  assert {
    condition     = join(":", [for k in ["publisher", "offer", "sku", "version"] : azurerm_batch_pool.pool.storage_image_reference[0][k]]) == "microsoft-dsvm:ubuntu-hpc:2404-rocm:latest" && azurerm_batch_pool.pool.node_agent_sku_id == "batch.node.ubuntu 24.04"
    error_message = "The pool should boot the catalog's image with the user's node agent."
  }
}

run "users_image_without_agent_fails" {
  command = plan

  variables {
    workload  = "hpc"
    cores     = 1536
    image_urn = "almalinux:almalinux-hpc:8_10-hpc-gen2:latest"
  }

  expect_failures = [azurerm_batch_pool.pool]
}

# Batch allows at most 80 nodes with inter-node communication in a user
# subscription account ("Batch service quotas and limits").
run "mpi_pool_over_the_user_subscription_limit_fails" {
  command = plan

  variables {
    workload             = "hpc"
    cores                = 1536
    nodes                = 90
    pool_allocation_mode = "UserSubscription"
  }

  expect_failures = [azurerm_batch_pool.pool]
}

run "mpi_pool_of_90_nodes_fits_a_batch_service_account" {
  command = plan

  variables {
    workload = "hpc"
    cores    = 1536
    nodes    = 90
  }

  assert {
    condition     = azurerm_batch_pool.pool.fixed_scale[0].target_dedicated_nodes == 90 && azurerm_batch_pool.pool.inter_node_communication == "Enabled"
    error_message = "90 MPI nodes should fit one pool of a BatchService account."
  }
}

run "pool_name_is_validated" {
  command = plan

  variables {
    name = "pool name with spaces"
  }

  expect_failures = [var.name]
}
