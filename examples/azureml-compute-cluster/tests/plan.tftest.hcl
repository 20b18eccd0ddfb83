# Plans the module against the real azurerm schema (mock_provider keeps azurerm
# from calling Azure) and checks that the recommendation's Azure ML settings
# reach the compute cluster. The date is pinned so that the ranking does not
# move.

mock_provider "azurerm" {}

provider "hpcsku" {
  as_of = "2026-11-22"
}

variables {
  machine_learning_workspace_id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-ml/providers/Microsoft.MachineLearningServices/workspaces/mlw"
  location                      = "eastus"
}

# 70B in bf16 on 100 billion tokens within 30 days, on low-priority VMs: a job
# across several VMs, and a cluster that scales from 0 to exactly that many.
run "spot_training_cluster_is_low_priority" {
  command = plan

  variables {
    model_parameters_billion = 70
    tokens_billion           = 100
    deadline_hours           = 720
    spot                     = true
  }

  assert {
    condition     = azurerm_machine_learning_compute_cluster.cluster.vm_priority == "LowPriority" && output.vm_priority == data.hpcsku_recommendation.cluster.recommendations[0].deployment.azureml.vm_priority
    error_message = "spot = true should give vm_priority LowPriority: ${azurerm_machine_learning_compute_cluster.cluster.vm_priority}"
  }

  assert {
    condition     = azurerm_machine_learning_compute_cluster.cluster.vm_size == data.hpcsku_recommendation.cluster.vm_size && azurerm_machine_learning_compute_cluster.cluster.vm_size == data.hpcsku_recommendation.cluster.recommendations[0].deployment.azureml.vm_size
    error_message = "vm_size should be the recommended size."
  }

  assert {
    condition     = azurerm_machine_learning_compute_cluster.cluster.scale_settings[0].min_node_count == 0
    error_message = "The cluster should scale to zero when idle."
  }

  assert {
    condition     = azurerm_machine_learning_compute_cluster.cluster.scale_settings[0].max_node_count == data.hpcsku_recommendation.cluster.recommendations[0].nodes && output.nodes_per_job > 1
    error_message = "max_node_count should be the nodes one job needs, more than one: ${azurerm_machine_learning_compute_cluster.cluster.scale_settings[0].max_node_count}"
  }

  assert {
    condition     = output.rdma
    error_message = "A job across VMs should use InfiniBand."
  }

  assert {
    condition     = output.price_is_spot && output.price_per_node_hour == data.hpcsku_recommendation.cluster.recommendations[0].price_per_hour
    error_message = "spot = true should price the nodes with spot estimates."
  }

  assert {
    condition     = azurerm_machine_learning_compute_cluster.cluster.scale_settings[0].scale_down_nodes_after_idle_duration == "PT5M" && azurerm_machine_learning_compute_cluster.cluster.identity[0].type == "SystemAssigned"
    error_message = "The idle time and the identity should take the module's defaults."
  }
}

# A named model served on dedicated VMs.
run "dedicated_inference_cluster" {
  command = plan

  variables {
    workload   = "inference"
    model_name = "llama-3.1-8b"
  }

  assert {
    condition     = azurerm_machine_learning_compute_cluster.cluster.vm_priority == "Dedicated" && !output.price_is_spot
    error_message = "spot = false should give vm_priority Dedicated and on-demand prices."
  }

  assert {
    condition     = azurerm_machine_learning_compute_cluster.cluster.scale_settings[0].max_node_count == data.hpcsku_recommendation.cluster.recommendations[0].nodes
    error_message = "max_node_count should be the VMs every copy of the model needs."
  }

  assert {
    condition     = data.hpcsku_recommendation.cluster.requirements.model == "llama-3.1-8b"
    error_message = "The named model should size the cluster."
  }
}

# More headroom than one job needs is kept; less is raised to the job's count.
run "max_node_count_never_drops_below_one_job" {
  command = plan

  variables {
    max_node_count = 8
  }

  assert {
    condition     = data.hpcsku_recommendation.cluster.recommendations[0].nodes < 8 && azurerm_machine_learning_compute_cluster.cluster.scale_settings[0].max_node_count == 8
    error_message = "A larger max_node_count should be kept."
  }
}

run "cluster_name_is_validated" {
  command = plan

  variables {
    name = "-not-a-name"
  }

  expect_failures = [var.name]
}

run "user_assigned_identity_needs_ids" {
  command = plan

  variables {
    identity_type = "UserAssigned"
  }

  expect_failures = [azurerm_machine_learning_compute_cluster.cluster]
}
