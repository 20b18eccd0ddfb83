# One inference VM, sized by hpcsku.
#
# A model served from one VM: the recommendation sizes GPU memory for the
# weights plus the KV cache of every conversation in flight (the model's
# architecture from the catalog's model table), checks it GPU by GPU within
# the 90% a serving engine such as vLLM takes, keeps to one node, and prefers
# sizes without InfiniBand, which a single VM would pay for and never use.

data "hpcsku_recommendation" "inference" {
  workload = "inference"
  model = {
    name      = var.model
    precision = var.precision
  }
  context_tokens      = var.context_tokens
  concurrent_requests = var.concurrent_requests
  nodes               = 1
  target              = "vm"
  region              = var.location
  max_price_per_hour  = var.max_price_per_hour
  spot                = var.spot
  confidential        = var.confidential
  prefer              = var.prefer

  lifecycle {
    # Where no documented Marketplace image carries the driver a size needs
    # (the NC RTX PRO 6000 BSE v6 needs a GRID v20 build; arm64 sizes an arm64
    # image), image_urn is null: stop here and ask for one.
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
  top        = data.hpcsku_recommendation.inference.recommendations[0]
  deployment = local.top.deployment

  # "publisher:offer:sku:version", as source_image_reference wants it. Never
  # null past the postcondition above.
  image_urn = var.image_urn != null ? var.image_urn : local.deployment.image_urn
  image     = local.image_urn == null ? null : zipmap(["publisher", "offer", "sku", "version"], split(":", local.image_urn))

  # With the provider's availability_file: the first zone of the region where
  # the subscription can deploy the size; null (a regional VM) without one, or
  # where the region has no zones.
  zone = try(local.deployment.zones[0], null)

  # With serve_model: cloud-init starts vLLM (the image's version of its
  # arguments) with the recommendation's arguments, the layout the estimate
  # used: tensor parallel size, copies, --max-num-seqs, --max-model-len.
  # NVIDIA GPUs run vLLM's CUDA image with --gpus all; AMD GPUs its ROCm
  # image with the devices and permissions ROCm needs (vLLM's ROCm
  # installation guide, docs/getting_started/installation/gpu.rocm.inc.md,
  # "Pre-built images"). Both HPC images carry Docker (azhpc-images'
  # distros/ubuntu24.04/install.sh installs moby-engine for AMD).
  vllm_args = try(local.deployment.serving.vllm_args, null)
  amd_gpu   = lower(try(local.top.sku.gpu.vendor, "")) == "amd"
  gpu_access = local.amd_gpu ? [
    "--device", "/dev/kfd", "--device", "/dev/dri", "--group-add", "video", "--cap-add", "SYS_PTRACE", "--security-opt", "seccomp=unconfined",
  ] : ["--gpus", "all"]
  engine_image = local.amd_gpu ? var.vllm_rocm_image : var.vllm_image
  cloud_init = var.serve_model == null || local.vllm_args == null ? null : join("\n", [
    "#cloud-config",
    "runcmd:",
    "  - [${join(", ", [for a in concat(["docker", "run", "-d", "--restart", "always"], local.gpu_access, ["--ipc", "host", "-p", "8000:8000", local.engine_image, "--model", var.serve_model], local.vllm_args) : jsonencode(a)])}]",
  ])
}

resource "azurerm_network_interface" "inference" {
  name                           = "${var.name}-nic"
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

resource "azurerm_linux_virtual_machine" "inference" {
  name                  = var.name
  resource_group_name   = var.resource_group_name
  location              = var.location
  size                  = data.hpcsku_recommendation.inference.vm_size
  admin_username        = var.admin_username
  network_interface_ids = [azurerm_network_interface.inference.id]
  zone                  = local.zone

  # Spot: the recommendation's priority, eviction policy and price cap.
  priority        = try(local.deployment.spot.priority, "Regular")
  eviction_policy = try(local.deployment.spot.eviction_policy, null)
  max_bid_price   = try(local.deployment.spot.max_bid_price, -1)

  # A confidential size boots as a confidential VM: secure boot and vTPM on,
  # the OS disk and the VM's guest state encrypted.
  secure_boot_enabled = local.deployment.secure_boot_enabled
  vtpm_enabled        = local.deployment.vtpm_enabled

  # cloud-init runs the serving engine with the recommendation's arguments.
  custom_data = local.cloud_init == null ? null : base64encode(local.cloud_init)

  lifecycle {
    # A confidential GPU boots Canonical's confidential-VM image, which has no
    # GPU driver or container runtime: Microsoft's onboarding package
    # (Azure/az-cgpu-onboarding) installs the driver and turns on the GPU's
    # confidential computing mode after the first boot, so cloud-init cannot
    # start vLLM.
    precondition {
      condition     = var.serve_model == null || local.deployment.security_type == null
      error_message = "serve_model cannot start vLLM on ${data.hpcsku_recommendation.inference.vm_size}, a confidential VM: its image has no GPU driver or container runtime until the confidential GPU onboarding (Azure/az-cgpu-onboarding) installs them after the first boot. Set serve_model = null and start the server after onboarding, or set confidential = false."
    }

    # vLLM serves GPUs its documentation lists: elsewhere the recommendation
    # gives no arguments, and its note says why.
    precondition {
      condition     = var.serve_model == null || local.vllm_args != null
      error_message = "serve_model cannot start vLLM on ${data.hpcsku_recommendation.inference.vm_size}: the recommendation gives no vLLM arguments for it. ${coalesce(try(local.deployment.serving.note, null), "It serves no language model on GPUs.")} Set serve_model = null, or put a size vLLM serves first in prefer."
    }
  }

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

  tags = merge(var.tags, { "hpcsku/vm-size" = data.hpcsku_recommendation.inference.vm_size })
}
