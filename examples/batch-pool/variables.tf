variable "name" {
  description = "Name of the pool: 1 to 64 letters, digits, hyphens and underscores (azurerm's rule)."
  type        = string
  default     = "hpcsku-pool"

  validation {
    condition     = can(regex("^[a-zA-Z0-9_-]{1,64}$", var.name))
    error_message = "name must be 1 to 64 letters, digits, hyphens and underscores."
  }
}

variable "resource_group_name" {
  description = "Resource group of the Batch account."
  type        = string
}

variable "batch_account_name" {
  description = "Name of the Batch account that gets the pool."
  type        = string
}

variable "pool_allocation_mode" {
  description = "The Batch account's pool allocation mode (`azurerm_batch_account.pool_allocation_mode`): `BatchService` (azurerm's default) or `UserSubscription`. Spot nodes need `UserSubscription`; it also sets the node limit of an MPI pool (100, or 80 in `UserSubscription`)."
  type        = string
  default     = "BatchService"

  validation {
    condition     = contains(["BatchService", "UserSubscription"], var.pool_allocation_mode)
    error_message = "pool_allocation_mode must be BatchService or UserSubscription."
  }
}

variable "location" {
  description = "Region of the Batch account, for example `eastus`. Only sizes priced there are ranked."
  type        = string
}

variable "subnet_id" {
  description = "Subnet for the nodes, or null for none. With a subnet the pool also gets the recommendation's accelerated networking setting."
  type        = string
  default     = null
}

variable "workload" {
  description = "What the pool runs: `hpc` (tightly coupled MPI), `htc` (independent tasks), `training`, `fine_tuning`, `inference` or `data_processing`."
  type        = string
  default     = "hpc"

  validation {
    condition     = contains(["hpc", "htc", "training", "fine_tuning", "inference", "data_processing"], var.workload)
    error_message = "workload must be hpc, htc, training, fine_tuning, inference or data_processing."
  }
}

variable "cores" {
  description = "For `hpc` and `htc`: cores one job needs; the recommendation spreads them over as many VMs as it takes. Null takes the recommendation's default."
  type        = number
  default     = null
}

variable "min_vcpus" {
  description = "Minimum vCPUs per VM, or null."
  type        = number
  default     = null
}

variable "nodes" {
  description = "VMs one job runs on, or null to let the recommendation choose."
  type        = number
  default     = null
}

variable "interconnect" {
  description = "Back-end network: `infiniband`, `any`, or null for the recommendation's default (InfiniBand when the job spans VMs or is MPI)."
  type        = string
  default     = null
}

variable "model_name" {
  description = "For `training`, `fine_tuning` and `inference`: a model of the catalog's model table (see `hpcsku_models`). Null describes the model by `model_parameters_billion`."
  type        = string
  default     = null
}

variable "model_parameters_billion" {
  description = "For `training`, `fine_tuning` and `inference`: size of the model in billions of parameters. Null takes the count of `model_name`, or 7 without a name."
  type        = number
  default     = null
}

variable "precision" {
  description = "Precision of the model's weights: `fp32`, `tf32`, `bf16`, `fp16`, `fp8`, `int8` or `int4`. Null takes the named model's, else `bf16`."
  type        = string
  default     = null
}

variable "tokens_billion" {
  description = "For `training` and `fine_tuning`: tokens the job processes, in billions. Null takes the recommendation's default."
  type        = number
  default     = null
}

variable "deadline_hours" {
  description = "For `training` and `fine_tuning`: wall time the job must finish in. Null never removes a size."
  type        = number
  default     = null
}

variable "gpu_vendor" {
  description = "GPU vendor: `any`, `nvidia` or `amd`."
  type        = string
  default     = "any"

  validation {
    condition     = contains(["any", "nvidia", "amd"], var.gpu_vendor)
    error_message = "gpu_vendor must be any, nvidia or amd."
  }
}

variable "spot" {
  description = "Run the pool on Spot nodes (`target_low_priority_nodes`), priced with spot estimates where known. Needs `pool_allocation_mode = \"UserSubscription\"`. One preempted node restarts a whole MPI job."
  type        = bool
  default     = false
}

variable "image_urn" {
  description = "Marketplace image as `publisher:offer:sku:version`, with `node_agent_sku_id`. Null uses the image the recommendation names for the size (the Azure HPC image)."
  type        = string
  default     = null

  validation {
    condition     = var.image_urn == null || length(split(":", coalesce(var.image_urn, ":::"))) == 4
    error_message = "image_urn must look like publisher:offer:sku:version."
  }
}

variable "node_agent_sku_id" {
  description = "Batch node agent matching the image, for example `batch.node.ubuntu 24.04` (`az batch pool supported-images list` lists the pairs). Required with `image_urn`; otherwise null takes the recommendation's."
  type        = string
  default     = null
}

variable "max_tasks_per_node" {
  description = "Tasks one node runs at a time, when the pool has no inter-node communication; null takes the recommendation's (`deployment.batch.max_tasks_per_node`: the tasks the layout puts on each node, one per vCPU it uses). An MPI pool always runs one (multi-instance tasks need it)."
  type        = number
  default     = null
}

variable "prefer" {
  description = "Sizes to keep, in order of preference, so that a new catalog never changes `vm_size` (which replaces the pool)."
  type        = list(string)
  default     = null
}

variable "metadata" {
  description = "Metadata for the pool (Batch pools take metadata, not tags)."
  type        = map(string)
  default     = {}
}
