variable "location" {
  description = "Azure region of the cluster, for example `eastus`. Only sizes priced there are ranked."
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
  description = "Run the `htc` partition on Spot VMs (evictable; fine for retried independent tasks)."
  type        = bool
  default     = true
}

variable "max_nodes" {
  description = "Most VMs per partition. Raised to the nodes one job needs when lower."
  type = object({
    hpc = optional(number, 16)
    gpu = optional(number, 8)
    htc = optional(number, 100)
  })
  default = {}
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

variable "ccws_parameters" {
  description = <<-EOT
    The other parameters of the CycleCloud Workspace for Slurm deployment, as plain values (not
    wrapped in `{ value = ... }`): `location`, `adminUsername`, `network`, `sharedFilesystem`,
    `schedulerNode`, `loginNodes` and so on. They are merged with the `hpc`, `gpu` and `htc`
    partitions this module sizes.
  EOT
  type        = any
  default     = {}
}

variable "ccws_template_file" {
  description = "Path of the CycleCloud Workspace for Slurm ARM template (`mainTemplate.json` from its release). When set, the module deploys it at subscription scope with the parameters; when null (the default) it only produces the parameters."
  type        = string
  default     = null
}

variable "deployment_name" {
  description = "Name of the subscription deployment when `ccws_template_file` is set."
  type        = string
  default     = "ccws"
}
