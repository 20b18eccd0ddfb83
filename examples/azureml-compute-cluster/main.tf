# An Azure Machine Learning compute cluster, sized by hpcsku.
#
# With `target = "azureml"` the recommendation keeps only sizes Azure ML
# supports and returns the cluster settings for the size: the VM priority
# (`LowPriority` when `spot` is true, else `Dedicated`) and the node counts the
# cluster scales between (from 0 up to the VMs one job needs). Azure ML brings
# its own OS image, with the InfiniBand driver on RDMA sizes, so the catalog's
# image plays no part here.

data "hpcsku_recommendation" "cluster" {
  workload = var.workload
  model = {
    name               = var.model_name
    parameters_billion = var.model_name == null ? coalesce(var.model_parameters_billion, 7) : var.model_parameters_billion
    precision          = var.precision
  }
  fine_tuning_method = var.workload == "fine_tuning" ? var.fine_tuning_method : null
  tokens_billion     = var.workload == "inference" ? null : var.tokens_billion
  deadline_hours     = var.workload == "inference" ? null : var.deadline_hours
  gpu_vendor         = var.gpu_vendor
  spot               = var.spot
  target             = "azureml"
  region             = var.location
  prefer             = var.prefer
}

locals {
  top     = data.hpcsku_recommendation.cluster.recommendations[0]
  azureml = local.top.deployment.azureml

  # Extra headroom never lowers the count one job needs.
  max_node_count = max(coalesce(var.max_node_count, 0), local.azureml.max_node_count)
}

resource "azurerm_machine_learning_compute_cluster" "cluster" {
  name                          = var.name
  location                      = var.location
  machine_learning_workspace_id = var.machine_learning_workspace_id
  vm_size                       = local.azureml.vm_size
  vm_priority                   = local.azureml.vm_priority
  subnet_resource_id            = var.subnet_resource_id
  # description forces a new cluster when it changes: no node count in it.
  description = "${local.azureml.vm_size}, sized by hpcsku for ${var.workload}."

  scale_settings {
    min_node_count                       = local.azureml.min_node_count
    max_node_count                       = local.max_node_count
    scale_down_nodes_after_idle_duration = var.scale_down_nodes_after_idle_duration
  }

  dynamic "identity" {
    for_each = var.identity_type == null ? [] : [var.identity_type]
    content {
      type         = identity.value
      identity_ids = strcontains(identity.value, "UserAssigned") ? var.identity_ids : null
    }
  }

  tags = merge(var.tags, { "hpcsku/vm-size" = local.azureml.vm_size })

  lifecycle {
    precondition {
      condition     = !strcontains(coalesce(var.identity_type, "none"), "UserAssigned") || length(var.identity_ids) > 0
      error_message = "identity_type ${coalesce(var.identity_type, "none")} needs at least one user-assigned identity in identity_ids."
    }
  }
}
