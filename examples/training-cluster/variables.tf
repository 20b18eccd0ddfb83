variable "name" {
  description = "Name of the scale set; with `target = \"vm\"`, prefix of the VMs (`<name>-0`, `<name>-1`, ...), their network interfaces and the availability set. Also the prefix of the proximity placement group."
  type        = string
  default     = "train"
}

variable "target" {
  description = "How the VMs are deployed: `vmss` (the default), one scale set, with a single placement group when the job uses InfiniBand across VMs; or `vm`, separate VMs, in one availability set when the job uses InfiniBand across VMs."
  type        = string
  default     = "vmss"

  validation {
    condition     = contains(["vmss", "vm"], var.target)
    error_message = "target must be vmss or vm."
  }
}

variable "resource_group_name" {
  description = "Resource group to deploy into."
  type        = string
}

variable "location" {
  description = "Azure region, for example `eastus`. Also the region the recommendation prices sizes in, so only sizes offered there are ranked."
  type        = string
}

variable "subnet_id" {
  description = "ID of the subnet for the scale set's network interfaces."
  type        = string
}

variable "admin_username" {
  description = "Administrator user name on every VM."
  type        = string
  default     = "azureuser"
}

variable "admin_ssh_public_key" {
  description = "SSH public key for the administrator."
  type        = string
}

variable "tokens_billion" {
  description = "Tokens the run processes (dataset × epochs), in billions. Null assumes 20 tokens per parameter, compute-optimal."
  type        = number
  default     = null
}

variable "deadline_hours" {
  description = "Wall time the run must finish in; the cluster scales out to meet it. Null sizes it to finish within 720 hours, without rejecting a size."
  type        = number
  default     = null
}

variable "model_parameters_billion" {
  description = "Size of the model to train, in billions of parameters. It drives the GPU memory estimate and so the size and node count."
  type        = number
  default     = 70
}

variable "precision" {
  description = "Precision of the weights: `fp32`, `tf32`, `bf16`, `fp16`, `fp8`, `int8` or `int4`."
  type        = string
  default     = "bf16"
}

variable "nodes" {
  description = "VMs the job runs on, at most 100. Null lets the recommendation scale up before it scales out and choose the count."
  type        = number
  default     = null

  # InfiniBand reaches only the VMs of one scale set with a single placement
  # group, which holds 100 VMs unless Azure support raises it ("Set up
  # InfiniBand", Azure Virtual Machines documentation); the recommendation
  # rejects larger RDMA jobs under its `nodes` constraint.
  validation {
    condition     = var.nodes == null || (try(var.nodes >= 1 && var.nodes <= 100 && floor(var.nodes) == var.nodes, false))
    error_message = "nodes must be a whole number from 1 to 100: the VMs of one job talk over InfiniBand, which reaches only the VMs of one scale set with a single placement group, at most 100 by default. Run larger jobs as several clusters, or ask Azure support to raise the limit (up to 300) and deploy outside this module."
  }
}

variable "prefer" {
  description = "Sizes to keep, in order of preference. Pin the size you deployed here so that a new catalog never changes `sku` and replaces running VMs; a warning names a clearly better size."
  type        = list(string)
  default     = null
}

variable "confidential" {
  description = "`true` ranks only confidential sizes (the confidential H100), which the module boots as confidential VMs (secure boot, vTPM, encrypted VM guest state); null or `false` leaves them out."
  type        = bool
  default     = null
}

variable "image_urn" {
  description = "Marketplace image as `publisher:offer:sku:version`. Null uses the image the recommendation names for the size (the Azure HPC image, with GPU and InfiniBand drivers; the arm64 `ubuntu-hpc:2404-gb` image for ND GB200 v6 and ND GB300 v6; Canonical's confidential-VM image for the confidential H100). Where it names none (no documented Marketplace image carries the driver the size needs, as for the NC RTX PRO 6000 BSE v6), the plan stops and asks for this."
  type        = string
  default     = null

  validation {
    condition     = var.image_urn == null || length(split(":", coalesce(var.image_urn, ":::"))) == 4
    error_message = "image_urn must look like publisher:offer:sku:version."
  }
}

variable "proximity_placement_group" {
  description = "Also put the VMs in a proximity placement group that allows only the chosen size, for low latency on the front-end (Ethernet) network. InfiniBand needs no proximity placement group, and one narrows where Azure can allocate the VMs: leave it off (the default) unless the job is sensitive to Ethernet latency."
  type        = bool
  default     = false
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
}
