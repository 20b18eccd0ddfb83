# An Azure Batch pool, sized by hpcsku.
#
# With `target = "batch"` the recommendation keeps only sizes Batch supports
# and returns the pool settings for the size: the marketplace image split into
# `storage_image_reference`, the Batch node agent that matches it, whether the
# nodes talk to each other (`Enabled` when one job spans VMs, as MPI does) and
# the fixed node counts (dedicated, or Spot when `spot` is true).
#
# Spot nodes in Batch: `target_low_priority_nodes` is the Spot count. Batch's
# own low-priority VMs were retired on 2025-09-30, so those nodes are only
# allocated in accounts with pool allocation mode `UserSubscription`; the plan
# fails for `spot = true` unless `pool_allocation_mode` says so.

data "hpcsku_recommendation" "pool" {
  workload = var.workload
  model = contains(["training", "fine_tuning", "inference"], var.workload) ? {
    name               = var.model_name
    parameters_billion = var.model_name == null ? coalesce(var.model_parameters_billion, 7) : var.model_parameters_billion
    precision          = var.precision
  } : null
  cores          = contains(["hpc", "htc"], var.workload) ? var.cores : null
  min_vcpus      = var.min_vcpus
  nodes          = var.nodes
  tokens_billion = contains(["training", "fine_tuning"], var.workload) ? var.tokens_billion : null
  deadline_hours = contains(["training", "fine_tuning"], var.workload) ? var.deadline_hours : null
  interconnect   = var.interconnect
  gpu_vendor     = var.gpu_vendor
  spot           = var.spot
  target         = "batch"
  region         = var.location
  prefer         = var.prefer
}

locals {
  top   = data.hpcsku_recommendation.pool.recommendations[0]
  batch = local.top.deployment.batch

  # The image: the user's URN, else the one the catalog names for the size
  # (deployment.batch.image, null when there is none). The node agent must
  # match the image, so a user's image takes the user's agent; the catalog's
  # image takes the agent Batch's sources name for it, or the user's where
  # they name none (node_agent_sku_id is null then).
  user_image = var.image_urn == null ? null : zipmap(["publisher", "offer", "sku", "version"], split(":", var.image_urn))
  image      = var.image_urn == null ? local.batch.image : local.user_image
  node_agent = var.image_urn == null ? coalesce(var.node_agent_sku_id, local.batch.node_agent_sku_id, "none") : coalesce(var.node_agent_sku_id, "none")

  # Multi-instance (MPI) tasks need inter-node communication and one task per
  # node (Azure Batch, "Use multi-instance tasks to run MPI applications").
  # Independent tasks (htc) run as many at once on a node as the layout puts
  # there, deployment.batch.max_tasks_per_node: Batch's default is 1.
  mpi = local.batch.inter_node_communication == "Enabled"

  # Batch caps pools with inter-node communication at 100 nodes (pool
  # allocation mode BatchService) or 80 (UserSubscription): "Batch service
  # quotas and limits", pool size limits.
  mpi_node_limit = var.pool_allocation_mode == "UserSubscription" ? 80 : 100
  pool_nodes     = local.batch.target_dedicated_nodes + local.batch.target_low_priority_nodes

  image_problem = (
    var.image_urn != null ? "image_urn needs node_agent_sku_id, the Batch node agent matching that image (for example \"batch.node.ubuntu 24.04\")." :
    local.batch.image == null ? "the catalog names no image for this size (an arm64 size, a size whose driver no marketplace image carries, or a CPU size); set image_urn (publisher:offer:sku:version) and node_agent_sku_id." :
    "the catalog names no Batch node agent for its image ${coalesce(local.top.deployment.image_urn, "-")}; set node_agent_sku_id if Batch supports that image, or set image_urn and node_agent_sku_id."
  )
}

resource "azurerm_batch_pool" "pool" {
  name                = var.name
  resource_group_name = var.resource_group_name
  account_name        = var.batch_account_name
  display_name        = "${local.batch.vm_size}, sized by hpcsku" # forces a new pool when it changes: no node count
  vm_size             = local.batch.vm_size
  node_agent_sku_id   = local.node_agent
  max_tasks_per_node  = local.mpi ? 1 : coalesce(var.max_tasks_per_node, local.batch.max_tasks_per_node)

  inter_node_communication = local.batch.inter_node_communication

  storage_image_reference {
    publisher = try(local.image.publisher, "none")
    offer     = try(local.image.offer, "none")
    sku       = try(local.image.sku, "none")
    version   = try(local.image.version, "none")
  }

  fixed_scale {
    target_dedicated_nodes    = local.batch.target_dedicated_nodes
    target_low_priority_nodes = local.batch.target_low_priority_nodes
  }

  dynamic "network_configuration" {
    for_each = var.subnet_id == null ? [] : [var.subnet_id]
    content {
      subnet_id                      = network_configuration.value
      accelerated_networking_enabled = local.top.deployment.accelerated_networking
    }
  }

  metadata = merge(var.metadata, { "hpcsku-vm-size" = local.batch.vm_size })

  lifecycle {
    precondition {
      condition     = local.image != null && local.node_agent != "none"
      error_message = "Missing Batch image or node agent for ${local.batch.vm_size}: ${local.image_problem} `az batch pool supported-images list` lists the images Batch supports with their agents; or pin a size with an image in prefer."
    }
    precondition {
      condition     = !var.spot || var.pool_allocation_mode == "UserSubscription"
      error_message = "spot = true needs a Batch account with pool allocation mode UserSubscription: Batch's low-priority VMs were retired on 2025-09-30, and Spot nodes are only allocated in user subscription accounts. Set pool_allocation_mode = \"UserSubscription\" for such an account, or spot = false."
    }
    precondition {
      condition     = !local.mpi || local.pool_nodes <= local.mpi_node_limit
      error_message = "The job needs ${local.pool_nodes} nodes talking to each other, more than Batch allows in one pool with inter-node communication (${local.mpi_node_limit} in ${var.pool_allocation_mode} accounts). Choose a larger size (prefer) or a smaller job."
    }
  }
}
