# A multi-node training cluster as a Linux scale set, sized by hpcsku.
#
# hpcsku_recommendation turns "train a 70B model in bf16 in eastus" into a
# size, a node count and the deployment settings that size needs. When the job
# spans VMs over InfiniBand the scale set gets a single placement group and a
# proximity placement group, the settings RDMA needs on Azure.

data "hpcsku_recommendation" "training" {
  workload = "training"
  model = {
    parameters_billion = var.model_parameters_billion
    precision          = var.precision
  }
  tokens_billion = var.tokens_billion
  deadline_hours = var.deadline_hours
  nodes          = var.nodes
  target         = "vmss"
  region         = var.location
  prefer         = var.prefer
}

locals {
  top        = data.hpcsku_recommendation.training.recommendations[0]
  deployment = local.top.deployment

  # "publisher:offer:sku:version", as source_image_reference wants it.
  image_urn = coalesce(var.image_urn, local.deployment.image_urn, "none:none:none:none")
  image     = zipmap(["publisher", "offer", "sku", "version"], split(":", local.image_urn))
}

resource "azurerm_proximity_placement_group" "training" {
  count = local.deployment.placement_group ? 1 : 0

  name                = "${var.name}-ppg"
  resource_group_name = var.resource_group_name
  location            = var.location
  allowed_vm_sizes    = [data.hpcsku_recommendation.training.vm_size]
  tags                = var.tags
}

resource "azurerm_linux_virtual_machine_scale_set" "training" {
  name                = var.name
  resource_group_name = var.resource_group_name
  location            = var.location
  sku                 = data.hpcsku_recommendation.training.vm_size
  instances           = local.top.nodes
  admin_username      = var.admin_username

  # RDMA across VMs needs them in one placement group, close together.
  single_placement_group       = local.deployment.single_placement_group
  proximity_placement_group_id = one(azurerm_proximity_placement_group.training[*].id)
  # Every VM must come up with the same fabric; extra VMs would only be billed.
  overprovision               = false
  platform_fault_domain_count = 1

  admin_ssh_key {
    username   = var.admin_username
    public_key = var.admin_ssh_public_key
  }

  source_image_reference {
    publisher = local.image.publisher
    offer     = local.image.offer
    sku       = local.image.sku
    version   = local.image.version
  }

  os_disk {
    storage_account_type = "Premium_LRS"
    caching              = "ReadWrite"
    disk_size_gb         = 256
  }

  network_interface {
    name                           = "${var.name}-nic"
    primary                        = true
    accelerated_networking_enabled = local.deployment.accelerated_networking

    ip_configuration {
      name      = "internal"
      primary   = true
      subnet_id = var.subnet_id
    }
  }

  tags = merge(var.tags, { "hpcsku/vm-size" = data.hpcsku_recommendation.training.vm_size })

  lifecycle {
    precondition {
      condition     = var.image_urn != null || local.deployment.image_urn != null
      error_message = "The catalog names no image for ${data.hpcsku_recommendation.training.vm_size}; set image_urn."
    }
  }
}
