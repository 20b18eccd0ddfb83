variable "name" {
  description = "Name of the scale set, and prefix of the proximity placement group."
  type        = string
  default     = "train"
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
  description = "VMs the job runs on. Null lets the recommendation scale up before it scales out and choose the count."
  type        = number
  default     = null
}

variable "prefer" {
  description = "Sizes to keep, in order of preference. Pin the size you deployed here so that a new catalog never changes `sku` and replaces running VMs; a warning names a clearly better size."
  type        = list(string)
  default     = null
}

variable "image_urn" {
  description = "Marketplace image as `publisher:offer:sku:version`. Null uses the image the recommendation names for the size (the Azure HPC image, with GPU and InfiniBand drivers)."
  type        = string
  default     = null

  validation {
    condition     = var.image_urn == null || length(split(":", coalesce(var.image_urn, ":::"))) == 4
    error_message = "image_urn must look like publisher:offer:sku:version."
  }
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
}
