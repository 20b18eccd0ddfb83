variable "location" {
  description = "Azure region of the cluster, for example `eastus`. Only sizes priced there are ranked. It is also the workspace's `location` parameter and the cluster's `Region`."
  type        = string
}

variable "hpc_cores_per_job" {
  description = "Cores one tightly coupled MPI job uses in the `hpc` partition; the node count follows from the chosen size."
  type        = number
  default     = 1024
}

variable "gpu_model_parameters_billion" {
  description = "Model the `gpu` partition trains, in billions of parameters."
  type        = number
  default     = 13
}

variable "gpu_precision" {
  description = "Precision of that model: `fp32`, `tf32`, `bf16`, `fp16`, `fp8`, `int8` or `int4`."
  type        = string
  default     = "bf16"
}

variable "htc_min_vcpus" {
  description = "Fewest vCPUs per VM for the `htc` partition's independent tasks."
  type        = number
  default     = 16
}

variable "htc_use_spot" {
  description = "Run the `htc` partition on Spot VMs (evictable; fine for retried independent tasks). The workspace's `htc.useSpot` and the cluster's `HTCUseLowPrio`."
  type        = bool
  default     = true
}

variable "max_nodes" {
  description = "Most VMs per partition (the workspace's `maxNodes`, the cluster's `Max<HPC|GPU|HTC>ExecuteNodeCount`). Raised to the VMs one job needs when lower. CycleCloud splits an `hpc` or `gpu` partition into scale sets of at most `HPCMaxScalesetSize` VMs, so a partition may be larger than that; one job stays within one scale set."
  type = object({
    hpc = optional(number, 16)
    gpu = optional(number, 8)
    htc = optional(number, 100)
  })
  default = {}

  validation {
    condition     = alltrue([for n in values(var.max_nodes) : n >= 0 && floor(n) == n])
    error_message = "Each max_nodes value must be a whole number of VMs, 0 or more."
  }
}

variable "os_images" {
  description = <<-EOT
    Per partition, the OS image, replacing the recommendation's. It is required for a partition
    whose recommended size has no documented Marketplace image (`deployment.cyclecloud.os_image`
    is null: most CPU sizes, and NC RTX PRO 6000 BSE v6, which needs the GRID driver build). Give what the workspace's `osImage` and the cluster's
    `<HPC|GPU|HTC>ImageName` take: a Marketplace URN (`publisher:offer:sku:version`), the resource
    ID of an Azure Compute Gallery image version or managed image, or a CycleCloud image name such
    as `cycle.image.ubuntu24`. The image must carry the drivers the size needs and match its CPU
    architecture (`partitions[*].cpu_architecture`).
  EOT
  type = object({
    hpc = optional(string)
    gpu = optional(string)
    htc = optional(string)
  })
  default = {}

  validation {
    condition = alltrue([
      for image in values(var.os_images) : image == null || can(regex("^([^:/\\s]+:[^:/\\s]+:[^:/\\s]+:[^:/\\s]+|/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\\.Compute/(galleries/[^/]+/images/[^/]+(/versions/[^/]+)?|images/[^/]+)|[A-Za-z0-9][A-Za-z0-9._-]*)$", image))
    ])
    error_message = "Each os_images value must be a Marketplace URN (publisher:offer:sku:version), an image resource ID (/subscriptions/.../providers/Microsoft.Compute/galleries/.../images/...[/versions/...] or .../Microsoft.Compute/images/...) or a CycleCloud image name such as cycle.image.ubuntu24."
  }
}

variable "availability_zones" {
  description = "Per partition, the availability zones its nodes spread over (`\"1\"`, `\"2\"`, `\"3\"`): the workspace's `availabilityZone` and the cluster's `<HPC|GPU|HTC>AvailabilityZone` with `DefineNodesAvailabilityZone`. Null (the default) leaves the partition without zones."
  type = object({
    hpc = optional(list(string))
    gpu = optional(list(string))
    htc = optional(list(string))
  })
  default = {}

  validation {
    condition     = alltrue([for zones in values(var.availability_zones) : try(length(zones) > 0 && alltrue([for z in zones : contains(["1", "2", "3"], z)]), zones == null)])
    error_message = "Each availability_zones list must be non-empty and hold only \"1\", \"2\" or \"3\"."
  }
}

variable "hpc_max_scaleset_size" {
  description = "The cluster's `HPCMaxScalesetSize`: most VMs in one scale set of the `hpc` and `gpu` node arrays (the template sets both from this one parameter). Null takes the smaller `max_scaleset_size` of the recommendations whose job uses InfiniBand across VMs (the size's InfiniBand span in one scale set with a single placement group: 300 VMs on the HPC series whose pages state it, 100 where none is stated), and otherwise leaves the template's default. It must hold the VMs one InfiniBand job needs. The workspace has no such parameter: it deploys the cluster with 100."
  type        = number
  default     = null

  validation {
    condition     = var.hpc_max_scaleset_size == null || try(var.hpc_max_scaleset_size >= 1 && floor(var.hpc_max_scaleset_size) == var.hpc_max_scaleset_size, false)
    error_message = "hpc_max_scaleset_size must be a whole number of VMs, 1 or more."
  }
}

variable "prefer" {
  description = "Per partition, sizes to keep in order of preference, so that a new catalog never changes a running cluster's machine types."
  type = object({
    hpc = optional(list(string))
    gpu = optional(list(string))
    htc = optional(list(string))
  })
  default = {}
}

variable "cluster_subnet_id" {
  description = "The cluster's `SubnetId` (required by the Slurm template): the compute subnet as `resource-group/virtual-network/subnet`, or its full resource ID, which is shortened to that form as CycleCloud Workspace for Slurm does. Null leaves it out of `slurm_cluster_parameters_json`; see `slurm_cluster_missing_parameters`."
  type        = string
  default     = null

  validation {
    condition     = var.cluster_subnet_id == null || can(regex("^([^/\\s]+/[^/\\s]+/[^/\\s]+|/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\\.Network/virtualNetworks/[^/]+/subnets/[^/]+)$", var.cluster_subnet_id))
    error_message = "cluster_subnet_id must be resource-group/virtual-network/subnet or /subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>."
  }
}

variable "cyclecloud_credentials" {
  description = "The cluster's `Credentials`: the name of the CycleCloud cloud provider account the cluster deploys with (`cyclecloud account list`). Null leaves it out of `slurm_cluster_parameters_json`; see `slurm_cluster_missing_parameters`."
  type        = string
  default     = null
}

variable "ccws_parameters" {
  description = <<-EOT
    The CycleCloud Workspace for Slurm parameters this module does not set, as plain values (not
    wrapped in `{ value = ... }`). The workspace's template requires, besides the `location`,
    `adminPassword`, `hpc`, `gpu` and `htc` this module sets: `adminUsername`, `key`, `ccVMName`,
    `ccVMSize`, `resourceGroup`, `schedFilesystem`, `sharedFilesystem`, `network`,
    `storagePrivateDnsZone`, `schedulerNode`, `loginNodes` and `tags`. Optional ones (`clusterName`,
    `slurmSettings`, `databaseConfig`, ...) may be added. Null (the default) produces no workspace
    parameters file.
  EOT
  type        = any
  default     = null

  validation {
    condition     = var.ccws_parameters == null || can(keys(var.ccws_parameters))
    error_message = "ccws_parameters must be an object of workspace parameters, for example { adminUsername = \"hpcadmin\", ... }."
  }

  validation {
    condition = length(setsubtract(
      ["adminUsername", "key", "ccVMName", "ccVMSize", "resourceGroup", "schedFilesystem", "sharedFilesystem", "network", "storagePrivateDnsZone", "schedulerNode", "loginNodes", "tags"],
      try(keys(var.ccws_parameters), ["adminUsername", "key", "ccVMName", "ccVMSize", "resourceGroup", "schedFilesystem", "sharedFilesystem", "network", "storagePrivateDnsZone", "schedulerNode", "loginNodes", "tags"]),
    )) == 0
    error_message = "ccws_parameters lacks parameters CycleCloud Workspace for Slurm requires (they have no default in its template): ${join(", ", sort(setsubtract(["adminUsername", "key", "ccVMName", "ccVMSize", "resourceGroup", "schedFilesystem", "sharedFilesystem", "network", "storagePrivateDnsZone", "schedulerNode", "loginNodes", "tags"], try(keys(var.ccws_parameters), []))))}."
  }

  validation {
    condition     = length(setintersection(["location", "adminPassword", "hpc", "gpu", "htc"], try(keys(var.ccws_parameters), []))) == 0
    error_message = "ccws_parameters sets ${join(", ", sort(setintersection(["location", "adminPassword", "hpc", "gpu", "htc"], try(keys(var.ccws_parameters), []))))}, which this module sets: location from location, adminPassword from ccws_admin_password, hpc, gpu and htc from the recommendations (with os_images, max_nodes, availability_zones and htc_use_spot)."
  }
}

variable "ccws_admin_password" {
  description = "The workspace's `adminPassword` (the CycleCloud administrator's password). Required with `ccws_parameters`; kept apart from them so that it stays sensitive."
  type        = string
  default     = null
  sensitive   = true
}

variable "ccws_template_file" {
  description = "Path of the CycleCloud Workspace for Slurm ARM template (`mainTemplate.json` from its release). When set, the module deploys it at subscription scope with the parameters (`ccws_parameters` is then required); when null (the default) it only produces the parameters."
  type        = string
  default     = null
}

variable "deployment_name" {
  description = "Name of the subscription deployment when `ccws_template_file` is set."
  type        = string
  default     = "ccws"
}
