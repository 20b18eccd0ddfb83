# A multi-node training cluster, sized by hpcsku: a Linux scale set
# (`target = "vmss"`, the default) or separate Linux VMs (`target = "vm"`).
#
# hpcsku_recommendation turns "train a 70B model in bf16 in eastus" into a
# size, a node count and the deployment settings that size needs. VMs that
# talk over InfiniBand must share one scale set with a single placement group
# (at most 100 VMs) or one availability set: `rdma_placement` says which, for
# the target. ND GB200 v6 and ND GB300 v6 are allocated by NVL72 racks of 18
# VMs and reject a single placement group: `single_placement_group` is false
# for them, and `deployment.interconnect` (the `interconnect` output) holds the
# scale set's rack settings, which azurerm cannot set (apply them with azapi).
# Confidential sizes get secure boot, vTPM and an encrypted VM guest state. A proximity placement group is neither required nor enough for
# InfiniBand; the module creates one only when asked
# (`proximity_placement_group = true`), for front-end network latency.

data "hpcsku_recommendation" "training" {
  workload = "training"
  model = {
    parameters_billion = var.model_parameters_billion
    precision          = var.precision
  }
  tokens_billion = var.tokens_billion
  deadline_hours = var.deadline_hours
  nodes          = var.nodes
  target         = var.target
  region         = var.location
  prefer         = var.prefer
  confidential   = var.confidential

  lifecycle {
    # Where no documented Marketplace image carries the driver a size needs
    # (the NC RTX PRO 6000 BSE v6 needs a GRID v20 build), image_urn is null:
    # stop here and ask for one. The arm64 GB200 and GB300 have theirs.
    postcondition {
      condition = var.image_urn != null || self.recommendations[0].deployment.image_urn != null
      error_message = join(" ", compact([
        "No documented Marketplace image carries the driver that ${self.vm_size} (${self.recommendations[0].deployment.cpu_architecture}) needs, so the recommendation's image_urn is null.",
        "Set image_urn to an image you have validated for this size, or put a size with a documented image first in prefer.",
        try("The best-ranked size with one is ${[for r in self.recommendations : r.vm_size if r.deployment.image_urn != null][0]}.", ""),
      ]))
    }
  }
}

locals {
  top        = data.hpcsku_recommendation.training.recommendations[0]
  deployment = local.top.deployment

  # "publisher:offer:sku:version", as source_image_reference wants it. Never
  # null past the postcondition above.
  image_urn = var.image_urn != null ? var.image_urn : local.deployment.image_urn
  image     = local.image_urn == null ? null : zipmap(["publisher", "offer", "sku", "version"], split(":", local.image_urn))

  # VMs of target "vm"; none for a scale set.
  vm_count = var.target == "vm" ? local.top.nodes : 0

  # With the provider's availability_file: one zone of the region where the
  # subscription can deploy the size, so that every VM of the job lands in
  # it (InfiniBand does not cross zones); null (regional) without the file or
  # where the region has no zones. A VM in an availability set takes none.
  zone = try(local.deployment.zones[0], null)
}

# Optional: keeps the VMs in one datacenter for front-end (Ethernet) latency.
# InfiniBand does not need it, and it narrows where Azure can allocate.
resource "azurerm_proximity_placement_group" "training" {
  count = var.proximity_placement_group ? 1 : 0

  name                = "${var.name}-ppg"
  resource_group_name = var.resource_group_name
  location            = var.location
  allowed_vm_sizes    = [data.hpcsku_recommendation.training.vm_size]
  tags                = var.tags
}

resource "azurerm_linux_virtual_machine_scale_set" "training" {
  count = var.target == "vmss" ? 1 : 0

  name                = var.name
  resource_group_name = var.resource_group_name
  location            = var.location
  sku                 = data.hpcsku_recommendation.training.vm_size
  instances           = local.top.nodes
  admin_username      = var.admin_username

  # InfiniBand reaches only the VMs of one placement group: true when
  # rdma_placement is "scale_set" (an RDMA job on more than one VM), except on
  # the rack-scale GB200 and GB300, which Azure places by interconnect block
  # instead (see the interconnect output).
  single_placement_group       = local.deployment.single_placement_group
  proximity_placement_group_id = one(azurerm_proximity_placement_group.training[*].id)
  zones                        = local.zone == null ? null : [local.zone]
  # Every VM must come up with the same fabric; extra VMs would only be billed.
  overprovision               = false
  platform_fault_domain_count = 1

  # Confidential sizes boot as confidential VMs; false elsewhere.
  secure_boot_enabled = local.deployment.secure_boot_enabled
  vtpm_enabled        = local.deployment.vtpm_enabled

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
    storage_account_type     = "Premium_LRS"
    caching                  = "ReadWrite"
    disk_size_gb             = 256
    security_encryption_type = local.deployment.os_disk_security_encryption_type
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
}

# Target "vm": VMs that talk over InfiniBand share one availability set. It
# is there for the fabric, not for spreading: one fault domain and one update
# domain, as the scale set's platform_fault_domain_count = 1 (azurerm allows
# 1 to 3 fault domains and 1 to 20 update domains; Azure allows at most 200
# VMs in an availability set).
resource "azurerm_availability_set" "training" {
  count = var.target == "vm" && local.deployment.rdma_placement == "availability_set" ? 1 : 0

  name                         = "${var.name}-avset"
  resource_group_name          = var.resource_group_name
  location                     = var.location
  platform_fault_domain_count  = 1
  platform_update_domain_count = 1
  managed                      = true
  proximity_placement_group_id = one(azurerm_proximity_placement_group.training[*].id)
  tags                         = var.tags
}

resource "azurerm_network_interface" "training" {
  count = local.vm_count

  name                           = "${var.name}-${count.index}-nic"
  resource_group_name            = var.resource_group_name
  location                       = var.location
  accelerated_networking_enabled = local.deployment.accelerated_networking

  ip_configuration {
    name                          = "internal"
    subnet_id                     = var.subnet_id
    private_ip_address_allocation = "Dynamic"
  }

  tags = var.tags
}

resource "azurerm_linux_virtual_machine" "training" {
  count = local.vm_count

  name                  = "${var.name}-${count.index}"
  resource_group_name   = var.resource_group_name
  location              = var.location
  size                  = data.hpcsku_recommendation.training.vm_size
  admin_username        = var.admin_username
  network_interface_ids = [azurerm_network_interface.training[count.index].id]

  availability_set_id = one(azurerm_availability_set.training[*].id)
  zone                = length(azurerm_availability_set.training) > 0 ? null : local.zone
  # The availability set's, when it has one: a VM must name the same group.
  proximity_placement_group_id = one(azurerm_proximity_placement_group.training[*].id)
  secure_boot_enabled          = local.deployment.secure_boot_enabled
  vtpm_enabled                 = local.deployment.vtpm_enabled

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
    storage_account_type     = "Premium_LRS"
    caching                  = "ReadWrite"
    disk_size_gb             = 256
    security_encryption_type = local.deployment.os_disk_security_encryption_type
  }

  tags = merge(var.tags, { "hpcsku/vm-size" = data.hpcsku_recommendation.training.vm_size })
}
