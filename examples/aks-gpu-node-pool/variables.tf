variable "kubernetes_cluster_id" {
  description = "ID of the AKS cluster that gets the GPU node pool."
  type        = string
}

variable "name" {
  description = "Name of the node pool: lowercase letters and digits, starting with a letter, at most 12 characters."
  type        = string
  default     = "gpu"

  validation {
    condition     = can(regex("^[a-z][a-z0-9]{0,11}$", var.name))
    error_message = "name must be 1 to 12 lowercase letters and digits, starting with a letter."
  }
}

variable "location" {
  description = "Region of the cluster, for example `eastus`. Only sizes priced there are ranked."
  type        = string
}

variable "vnet_subnet_id" {
  description = "Subnet for the nodes, or null to use the cluster's default."
  type        = string
  default     = null
}

variable "workload" {
  description = "What the pool runs: `training`, `fine_tuning` or `inference`."
  type        = string
  default     = "fine_tuning"

  validation {
    condition     = contains(["training", "fine_tuning", "inference"], var.workload)
    error_message = "workload must be training, fine_tuning or inference."
  }
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

variable "model_parameters_billion" {
  description = "Size of the model, in billions of parameters."
  type        = number
  default     = 7
}

variable "precision" {
  description = "Precision of the weights: `fp32`, `tf32`, `bf16`, `fp16`, `fp8`, `int8` or `int4`."
  type        = string
  default     = "bf16"
}

variable "model_name" {
  description = "A model of the provider's model table (for example `llama-3.1-70b`; see the hpcsku_models data source), at its published precision. Null sizes a model by `model_parameters_billion` and `precision`."
  type        = string
  default     = null
}

variable "prompt_tokens" {
  description = "For `inference`: mean prompt tokens per request. Null takes the provider's default split of the context."
  type        = number
  default     = null
}

variable "output_tokens" {
  description = "For `inference`: mean output tokens per request. Null takes the provider's default split of the context."
  type        = number
  default     = null
}

variable "tokens_per_second" {
  description = "For `inference`: the load, output tokens per second for the whole service. Null for none; set at most one of this and `requests_per_second`."
  type        = number
  default     = null
}

variable "requests_per_second" {
  description = "For `inference`: the load, requests per second for the whole service (an interactive service, held to the default latency targets when none is stated). Null for none."
  type        = number
  default     = null
}

variable "max_time_to_first_token_ms" {
  description = "For `inference`: the longest mean time to a request's first token at the load, in ms. Null for none."
  type        = number
  default     = null
}

variable "max_time_per_output_token_ms" {
  description = "For `inference`: the longest mean time per output token at the load, in ms. Null for none."
  type        = number
  default     = null
}

variable "min_replicas" {
  description = "For `inference`: the fewest copies of the model, each on its own nodes. Null for one."
  type        = number
  default     = null
}

variable "model_class" {
  description = "Kind of model: `generative`, `nongenerative` or `small`. `small` models run on CPU sizes: the pool then gets no taint and no GPU driver setting (`gpu_driver` null). Null takes the provider's default (`generative`)."
  type        = string
  default     = null

  validation {
    condition     = var.model_class == null || contains(["generative", "nongenerative", "small"], coalesce(var.model_class, "generative"))
    error_message = "model_class must be generative, nongenerative or small."
  }
}

variable "gpu_vendor" {
  description = "GPU vendor: `any`, `nvidia` or `amd`. AMD pools get `gpu_driver = \"None\"`: the AMD GPU operator installs the driver."
  type        = string
  default     = "any"

  validation {
    condition     = contains(["any", "nvidia", "amd"], var.gpu_vendor)
    error_message = "gpu_vendor must be any, nvidia or amd."
  }
}

variable "min_count" {
  description = "Fewest nodes the autoscaler keeps. `0` lets an idle GPU pool cost nothing."
  type        = number
  default     = 0
}

variable "max_count" {
  description = "Most nodes the autoscaler adds. Raised to the nodes one job needs when lower."
  type        = number
  default     = 4
}

variable "prefer" {
  description = "Sizes to keep, in order of preference, so that a new catalog never changes `vm_size` and rotates the pool."
  type        = list(string)
  default     = null
}

variable "tags" {
  description = "Tags for the node pool."
  type        = map(string)
  default     = {}
}

variable "spot" {
  description = "Run the pool on Spot VMs (evicted when Azure needs the capacity back), priced with spot estimates. The pool gets priority, eviction policy, price cap, and the Spot taint and label AKS sets."
  type        = bool
  default     = false
}

variable "os_sku" {
  description = "The node pool's os_sku. Null takes the size's own where it needs one (`Ubuntu2404` for confidential GPUs and ND GB200/GB300), else `Ubuntu`."
  type        = string
  default     = null
}

variable "confidential" {
  description = "Run a confidential GPU pool (NCCads H100 v5): no driver from AKS (gpu_driver None; the NVIDIA GPU Operator installs the signed one), Ubuntu 24.04. Null: no confidential sizes."
  type        = bool
  default     = null
}
