variable "name" {
  description = "Name of the compute cluster: 3 to 32 letters, digits and hyphens, starting with a letter and ending with a letter or digit (azurerm's rule)."
  type        = string
  default     = "hpcsku-cluster"

  validation {
    condition     = can(regex("^[a-zA-Z][a-zA-Z0-9-]{1,30}[a-zA-Z0-9]$", var.name))
    error_message = "name must be 3 to 32 letters, digits and hyphens, start with a letter and end with a letter or digit."
  }
}

variable "machine_learning_workspace_id" {
  description = "ID of the Azure Machine Learning workspace that gets the cluster."
  type        = string
}

variable "location" {
  description = "Region of the cluster, for example `eastus`. Only sizes priced there are ranked."
  type        = string
}

variable "subnet_resource_id" {
  description = "Subnet for the nodes, or null to let Azure ML place them (a managed network, or none)."
  type        = string
  default     = null
}

variable "workload" {
  description = "What the cluster runs: `training`, `fine_tuning` or `inference` (for example batch inference)."
  type        = string
  default     = "training"

  validation {
    condition     = contains(["training", "fine_tuning", "inference"], var.workload)
    error_message = "workload must be training, fine_tuning or inference."
  }
}

variable "model_name" {
  description = "A model of the catalog's model table (see the `hpcsku_models` data source), for example `llama-3.1-8b`. It gives the parameter count, the published precision and the architecture. Null describes the model by `model_parameters_billion` alone."
  type        = string
  default     = null
}

variable "model_parameters_billion" {
  description = "Size of the model, in billions of parameters. Null takes the count of `model_name`, or 7 without a name."
  type        = number
  default     = null
}

variable "precision" {
  description = "Precision of the weights: `fp32`, `tf32`, `bf16`, `fp16`, `fp8`, `int8` or `int4`. Null takes the named model's published precision, else `bf16`."
  type        = string
  default     = null
}

variable "fine_tuning_method" {
  description = "For `fine_tuning`: `full`, `lora` or `qlora`. Null takes the default for the precision (`full`; `qlora` for int4, `lora` for int8)."
  type        = string
  default     = null

  validation {
    condition     = var.fine_tuning_method == null || contains(["full", "lora", "qlora"], coalesce(var.fine_tuning_method, "full"))
    error_message = "fine_tuning_method must be full, lora or qlora."
  }
}

variable "tokens_billion" {
  description = "For `training` and `fine_tuning`: tokens the job processes (dataset × epochs), in billions. Null takes the recommendation's default (20 per parameter for training)."
  type        = number
  default     = null
}

variable "deadline_hours" {
  description = "For `training` and `fine_tuning`: wall time the job must finish in; the job scales out to meet it. Null never removes a size."
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
  description = "Run on Azure ML low-priority VMs (`vm_priority = \"LowPriority\"`), priced with spot estimates where known. They can be preempted at any time: checkpoint training."
  type        = bool
  default     = false
}

variable "max_node_count" {
  description = "Most nodes the cluster scales to. Null, or a value below the VMs one job needs, uses that count."
  type        = number
  default     = null
}

variable "scale_down_nodes_after_idle_duration" {
  description = "Idle time before the cluster scales back to `min_node_count` (0), as an ISO 8601 duration such as `PT5M` or `PT120S`."
  type        = string
  default     = "PT5M"

  validation {
    condition     = can(regex("^PT([0-9]+H)?([0-9]+M)?([0-9]+S)?$", var.scale_down_nodes_after_idle_duration)) && var.scale_down_nodes_after_idle_duration != "PT"
    error_message = "scale_down_nodes_after_idle_duration must be an ISO 8601 duration of hours, minutes and seconds, such as PT5M or PT120S."
  }
}

variable "identity_type" {
  description = "Managed identity of the cluster: `SystemAssigned`, `UserAssigned`, `SystemAssigned, UserAssigned`, or null for none."
  type        = string
  default     = "SystemAssigned"

  validation {
    condition     = var.identity_type == null || contains(["SystemAssigned", "UserAssigned", "SystemAssigned, UserAssigned"], coalesce(var.identity_type, "SystemAssigned"))
    error_message = "identity_type must be SystemAssigned, UserAssigned, \"SystemAssigned, UserAssigned\" or null."
  }
}

variable "identity_ids" {
  description = "User-assigned identity IDs, for the `UserAssigned` identity types."
  type        = list(string)
  default     = []
}

variable "prefer" {
  description = "Sizes to keep, in order of preference, so that a new catalog never changes `vm_size` (which replaces the cluster)."
  type        = list(string)
  default     = null
}

variable "tags" {
  description = "Tags for the cluster."
  type        = map(string)
  default     = {}
}
